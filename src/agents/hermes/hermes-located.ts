import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { hermesSessionFiles } from './hermes-files.js';
import { canonicalHermesId } from './hermes-ids.js';
import type { HermesStore } from './hermes-paths.js';
import { HERMES_UNKNOWN_LAYOUT, type HermesRows, hermesRowsNaming } from './hermes-rows.js';

/**
 * One store and what it holds of one conversation (what a purge, its residual and its notes start from).
 * @public
 */
export interface HermesLocated {
  /** The store. */
  store: HermesStore;
  /** Its rows naming the conversation. */
  rows: HermesRows;
  /** The canonical ids whose per-session files belong to the conversation in this store. */
  fileIds: string[];
}

/**
 * The plausible (canonical) ids among stored ids, each once: the ones a per-session file may be named after.
 * @public
 */
export function plausibleHermesIds(ids: readonly string[]): string[] {
  return [...new Set(ids.map((i) => (typeof i === 'string' ? canonicalHermesId(i) : null)).filter((i): i is string => i !== null))];
}

/**
 * What each store holds of the conversation of the canonical id (and of the ids remembered from its last purge), in
 * store order. Never throws for a store that cannot be read: its rows say why.
 * @public
 */
export async function locateHermes(fs: FileSystemPort, stores: readonly HermesStore[], c: string, remembered: readonly string[]): Promise<HermesLocated[]> {
  const out: HermesLocated[] = [];
  for (const store of stores) {
    const rows = await hermesRowsNaming(fs, store.db, c, remembered);
    out.push({ store, rows, fileIds: plausibleHermesIds([c, ...remembered, ...rows.ids]) });
  }
  return out;
}

/**
 * The per-session files of the located conversation, in every store.
 * @public
 */
export async function locatedFiles(fs: FileSystemPort, located: readonly HermesLocated[]): Promise<ArtifactPath[]> {
  const out: ArtifactPath[] = [];
  for (const l of located) out.push(...(await hermesSessionFiles(fs, l.store.root, l.fileIds)));
  return out;
}

/**
 * The rows naming the conversation in every store (an unreadable database is one entry with its reason).
 * @public
 */
export function locatedRows(located: readonly HermesLocated[]): Artifact[] {
  return located.flatMap((l): Artifact[] => (l.rows.unreadable !== undefined ? [{ kind: 'file', path: l.store.db, reason: `unreadable: ${l.rows.unreadable}` } as LeftArtifact] : l.rows.rows));
}

/**
 * A store whose layout is unknown, or whose database must not be written (`dbWriteRefusal`), while it names the
 * conversation: each is a refusal with its reason.
 * @public
 */
export async function locatedRefusals(fs: FileSystemPort, located: readonly HermesLocated[]): Promise<LeftArtifact[]> {
  const out: LeftArtifact[] = [];
  for (const l of located) {
    if (l.rows.rows.length === 0) continue;
    if (l.rows.refusal !== undefined) {
      out.push({ kind: 'file', path: l.store.db, reason: `${HERMES_UNKNOWN_LAYOUT}: ${l.rows.refusal}` });
      continue;
    }
    const write = await dbWriteRefusal(fs, l.store.db);
    if (write !== null) out.push({ kind: 'file', path: l.store.db, reason: write });
  }
  return out;
}

/**
 * The notes of a purge of the canonical id in one store: the profile it was found in, its compression chain, the
 * conversations left detached, and the WAL still holding the deleted text when it was kept.
 * @public
 */
export function locatedNotes(c: string, l: HermesLocated, walKept: boolean): string[] {
  const notes = [`${c}: found in Hermes profile ${l.store.profile} (${l.store.db})`];
  const conv = l.rows.conversation;
  if (conv !== undefined && conv.chain.length > 1) notes.push(`${c}: one conversation across the compression chain ${conv.chain.join(' → ')}`);
  if (conv !== undefined && conv.orphans.length > 0) notes.push(`${c}: separate conversations continuing it were kept, detached: ${conv.orphans.join(', ')}`);
  if (walKept) notes.push(`${l.store.db}-wal still holds the deleted text until Hermes checkpoints it: a live (or crashed) Hermes connection kept the WAL, and no checkpoint is forced under a live writer`);
  return notes;
}

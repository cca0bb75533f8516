import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import { DEAD_COPIES_TABLE, deadCopiesArtifact, wipeDeadCopies } from '../../sqlite/finish-dead-copies.js';
import { type Artifact, type LeftArtifact, STILL_ON_DISK, artifactPath } from '../../purge/artifact.js';
import { type ArtifactPath, existingArtifacts, removeArtifacts } from '../common/artifacts.js';
import { join } from 'node:path';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { listDirOrNull } from '../common/read-regular.js';
import { purgeGrokSearchRows } from './grok-search-purge.js';
import type { GrokSurvey } from './grok-survey.js';

/**
 * What a grok purge did: what it removed, and why rows that should have gone stay.
 * @public
 */
export interface GrokPurgeDone {
  /** Removed, in removal order: search rows, session dirs (descendants first), relocation files. */
  purged: Artifact[];
  /** Why a search database kept its rows, one per database. */
  rowFailures: LeftArtifact[];
}

/**
 * The paths of a survey in removal order, each with the grok home as its root (removal never leaves it).
 * @public
 */
export function grokArtifactPaths(s: GrokSurvey): ArtifactPath[] {
  return [...s.dirs.map((d) => ({ root: s.root, path: d.path })), ...s.files.map((f) => ({ root: s.root, path: artifactPath(f) }))];
}

/**
 * The artifacts of a survey, as records (dirs, links, relocation files, rows).
 * @public
 */
export function grokArtifacts(s: GrokSurvey): Artifact[] {
  return [...s.rows, ...s.dirs.map((d): Artifact => ({ kind: d.kind, path: d.path })), ...s.files];
}

/**
 * Purges what a survey found: the search rows (grok's own delete) and the old copies of them grok's writes left in the
 * database's bytes (the dead-copy pass every SQLite store's purge runs), the session dirs with their subagent descendants
 * first, stopping at the first that cannot go so the parent that finds the rest stays, then the relocation files.
 * Never throws.
 * @public
 */
export async function purgeGrokSurvey(fs: FileSystemPort, proc: ProcessPort, s: GrokSurvey): Promise<GrokPurgeDone> {
  const purged: Artifact[] = [];
  const rowFailures: LeftArtifact[] = [];
  for (const r of s.rows) {
    if (r.kind !== 'rows') continue;
    // Only old copies left (a rerun after a purge interrupted past its delete): no row to delete, the pass finishes it.
    const copiesOnly = r.table === DEAD_COPIES_TABLE;
    const done = copiesOnly ? null : await purgeGrokSearchRows(fs, s.root, r.db, s.ids);
    if (done?.kind === 'failed') {
      rowFailures.push({ kind: 'file', path: r.db, reason: done.reason });
      continue;
    }
    if (done?.rows != null) purged.push(done.rows);
    const wiped = await wipeDeadCopies(fs, proc, r.db, s.ids, 'grok writes without secure_delete');
    if (wiped.notes.length > 0) rowFailures.push({ kind: 'file', path: r.db, reason: wiped.notes.join('; ') });
    else if (copiesOnly && wiped.before > 0) purged.push(deadCopiesArtifact(r.db, wiped.before));
  }
  const dirs = await removeSessionDirs(fs, s);
  const files = await removeArtifacts(fs, s.files.map((f) => ({ root: s.root, path: artifactPath(f) })));
  return { purged: [...purged, ...dirs.purged, ...files.purged], rowFailures };
}

// Each session dir loses everything but its summary.json first, then the summary and the dir: the summary is what ties
// the dir to its id and workspace, so after a partial failure what stays is still provably this conversation's (a rerun
// verifies and finishes it). Descendants come first; the first dir that cannot go stops the rest.
async function removeSessionDirs(fs: FileSystemPort, s: GrokSurvey): Promise<{ purged: Artifact[] }> {
  const purged: Artifact[] = [];
  for (const d of s.dirs) {
    if (d.kind === 'dir') {
      const names = ((await listDirOrNull(fs, d.path)) ?? []).map((e) => e.name).filter((n) => n !== 'summary.json').sort();
      const inner = await removeArtifacts(fs, names.map((n) => ({ root: s.root, path: join(d.path, n) })), { stopOnFailure: true });
      if (inner.residual.length > 0) break;
    }
    const done = await removeArtifacts(fs, [{ root: s.root, path: d.path }]);
    purged.push(...done.purged);
    if (done.residual.length > 0) break;
  }
  return { purged };
}

/**
 * What is left of a survey's conversation, each with its reason: paths still there, rows still on record (with why a
 * write is refused, when it is), and what was refused.
 * @public
 */
export async function grokLeft(fs: FileSystemPort, s: GrokSurvey): Promise<LeftArtifact[]> {
  const present = new Set((await existingArtifacts(fs, grokArtifactPaths(s))).map((p) => p.path));
  const paths = grokArtifacts(s).filter((a) => a.kind !== 'rows' && present.has(a.path));
  return [
    ...paths.map((a) => ({ ...a, reason: STILL_ON_DISK })),
    ...(await Promise.all(s.rows.map(async (r) => ({ ...r, reason: (r.kind === 'rows' ? await dbWriteRefusal(fs, r.db).catch(() => null) : null) ?? STILL_ON_DISK })))),
    ...s.refused,
    ...s.dbRefused,
  ];
}

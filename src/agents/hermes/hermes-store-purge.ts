import type { Ports } from '../../ports/index.js';
import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import { deadCopiesArtifact, deadCopyArtifacts, wipeDeadCopies } from '../../sqlite/finish-dead-copies.js';
import type { StateClock } from '../../sqlite/state-clock.js';
import { type ArtifactPath, existingArtifacts, leftArtifacts, removeArtifacts } from '../common/artifacts.js';
import type { AgentStore, StorePurgeOutcome } from '../contract/agent-store.js';
import { pathPurge } from '../contract/path-purge.js';
import type { HomeDiscoveryContext } from '../types.js';
import { hermesMentions, hermesSessionFiles } from './hermes-files.js';
import { type HermesLocated, locatedFiles, locatedNotes, locatedRefusals, locatedRows, plausibleHermesIds } from './hermes-located.js';
import type { HermesStore } from './hermes-paths.js';
import { purgeHermesRows } from './hermes-purge-rows.js';

/**
 * What the parts of one Hermes store object share: its ports and clock, the stores of a context, where a conversation
 * is in them, and the memory of each canonical id's last purge (the ids as stored, and its notes) — the residual still
 * knows the chain once its rows are gone. One per store object (one per adapter).
 */
export interface HermesStoreCore {
  /** The ports every read and removal goes through. */
  readonly ports: Ports;
  /** The ports' clock: a store's columns are remembered only once its file and sidecars have settled by it. */
  readonly now: StateClock;
  /** The ids (as stored) and notes of each canonical id's last purge. */
  readonly purged: Map<string, { ids: string[]; notes: string[] }>;
  /** Every Hermes store of the context, the active one first. */
  stores(ctx: HomeDiscoveryContext): Promise<HermesStore[]>;
  /** What each store holds of the conversation of the canonical id (and of the ids remembered from its last purge). */
  locate(c: string, ctx: HomeDiscoveryContext): Promise<HermesLocated[]>;
}

/** The purge side of the Hermes store: plan, execute, residual, notes, mentions and `hasArtifacts` (canonical ids). */
export type HermesPurgeParts = Pick<AgentStore, 'planPurge' | 'executePurge' | 'residual' | 'purgeNotes' | 'mentions' | 'hasArtifacts'>;

/**
 * The purge of a Hermes conversation: the whole conversation's rows deleted from each store's `state.db` in one
 * transaction, then its per-session files; a refused purge (an unknown layout naming it, a database that must not be
 * written) removes nothing and the residual says why.
 */
export function hermesPurgeParts(core: HermesStoreCore): HermesPurgeParts {
  const { fs, proc } = core.ports;

  // The old copies of the conversation's deleted rows in each readable store's database (asked when no row names it).
  const deadCopies = async (c: string, located: readonly HermesLocated[]): Promise<Artifact[]> => {
    const ids = [c, ...(core.purged.get(c)?.ids ?? [])];
    return (await Promise.all(located.filter((l) => l.rows.unreadable === undefined).map((l) => deadCopyArtifacts(fs, l.store.db, ids)))).flat();
  };
  // The one dead-copy pass of every SQLite store a purge deletes rows from.
  const wipe = (db: string, ids: readonly string[]): ReturnType<typeof wipeDeadCopies> =>
    wipeDeadCopies(fs, proc, db, [...new Set(ids)], 'Hermes writes without secure_delete');

  // Shared rows (`gateway_routing.entry_json`) and files (`sessions/sessions.json`, `logs/*.log`) still naming an id of
  // the conversation; never removed.
  const mentions = async (c: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    try {
      const out: Artifact[] = [];
      for (const l of await core.locate(c, ctx)) {
        out.push(...l.rows.shared, ...(await hermesMentions(fs, l.store.root, l.fileIds)).map((path) => ({ kind: 'file' as const, path })));
      }
      return out;
    } catch {
      return [];
    }
  };

  // After a purge, its notes (the profile it was found in, its compression chain, the WAL still holding the deleted
  // text); before one, the same as far as they can be told now.
  const purgeNotes = async (c: string, ctx: HomeDiscoveryContext): Promise<string[]> => {
    const done = core.purged.get(c);
    if (done !== undefined) return [...done.notes];
    try {
      const out: string[] = [];
      for (const l of await core.locate(c, ctx)) {
        if (l.rows.rows.length === 0) continue;
        const wal = (await fs.lstat(`${l.store.db}-wal`).then(() => true, () => false)) && (await fs.lstat(`${l.store.db}-shm`).then(() => true, () => false));
        out.push(...locatedNotes(c, l, wal));
      }
      return out;
    } catch {
      return [];
    }
  };

  const plan = pathPurge(fs, {
    agent: 'hermes',
    // The per-session files of every id of the conversation, in every store searched.
    artifactPaths: async (c, ctx) => locatedFiles(fs, await core.locate(c, ctx)),
    // The rows naming the conversation in every store (an unreadable database is one entry with its reason); when none
    // does, the old copies of its deleted rows still in a `state.db`'s bytes (a purge interrupted after its delete).
    dbRows: async (c, ctx) => {
      const located = await core.locate(c, ctx);
      const rows = locatedRows(located);
      return rows.length > 0 ? rows : deadCopies(c, located);
    },
    // A store whose layout is unknown, or whose database must not be written, while it names the conversation.
    purgeRefusals: async (c, ctx) => locatedRefusals(fs, await core.locate(c, ctx)),
    mentions,
    purgeNotes,
  });

  const executePurge = async (c: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome> => {
    try {
      const located = await core.locate(c, ctx);
      // A refused purge removes nothing: the residual lists the refusals themselves.
      if ((await locatedRefusals(fs, located)).length > 0) return { removed: [] };
      const remembered = core.purged.get(c)?.ids ?? [];
      const out: Artifact[] = [];
      const failures: LeftArtifact[] = [];
      const notes: string[] = [];
      const ids = new Set(remembered);
      let paths: ArtifactPath[] = await locatedFiles(fs, located);
      for (const l of located) {
        if (l.rows.unreadable !== undefined) continue;
        if (l.rows.rows.length === 0) {
          // A rerun after a purge interrupted past its delete: the old copies of the deleted rows are what is left.
          const wiped = await wipe(l.store.db, [c, ...remembered]);
          notes.push(...wiped.notes);
          if (wiped.before > 0 && wiped.after === 0) out.push(deadCopiesArtifact(l.store.db, wiped.before));
          continue;
        }
        const done = await purgeHermesRows(fs, l.store.root, l.store.db, c, remembered);
        if (done.refused !== undefined) failures.push({ kind: 'file', path: l.store.db, reason: done.refused });
        for (const i of [...l.rows.ids, ...done.ids]) ids.add(i);
        out.push(...done.deleted);
        // Hermes writes without secure_delete: its own updates left old copies of the conversation's rows in the file.
        const wiped = done.deleted.length > 0 ? await wipe(l.store.db, [c, ...done.ids]) : null;
        notes.push(...locatedNotes(c, l, done.walKept && done.deleted.length > 0 && (wiped === null || wiped.notes.length > 0)), ...(wiped?.notes ?? []));
        paths = [...paths, ...(await hermesSessionFiles(fs, l.store.root, plausibleHermesIds(done.ids)))];
      }
      core.purged.set(c, { ids: [...ids], notes });
      const unique = [...new Map(paths.map((p) => [p.path, p])).values()];
      out.push(...(await removeArtifacts(fs, unique)).purged);
      return { removed: out, rowFailures: failures };
    } catch {
      return { removed: [] };
    }
  };

  // Per-session files still on disk, rows still naming any id of the conversation, a refusal or why a database could not
  // be read (the report adds why the last row delete failed while rows remain).
  const residual = async (c: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> => {
    try {
      const located = await core.locate(c, ctx);
      const files = await leftArtifacts(fs, await locatedFiles(fs, located));
      const found = locatedRows(located);
      const rows = found.length > 0 ? found : await deadCopies(c, located);
      return [...files, ...rows.map(asLeft), ...(await locatedRefusals(fs, located))];
    } catch {
      return [];
    }
  };

  // True for per-session files or rows naming the conversation: an unreadable shared database says nothing of one conversation.
  const hasArtifacts = async (c: string, ctx: HomeDiscoveryContext): Promise<boolean> => {
    try {
      const located = await core.locate(c, ctx);
      if (located.some((l) => l.rows.rows.length > 0)) return true;
      if ((await existingArtifacts(fs, await locatedFiles(fs, located))).length > 0) return true;
      return (await deadCopies(c, located)).length > 0;
    } catch {
      return false;
    }
  };

  return { planPurge: plan.planPurge, executePurge, residual, purgeNotes, mentions, hasArtifacts };
}

import { describeError } from '../../errors.js';
import type { Ports } from '../../ports/index.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { deadCopyArtifacts } from '../../sqlite/finish-dead-copies.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { type ArtifactPath, pathExists, removeArtifacts } from '../common/artifacts.js';
import type { StorePurgeOutcome } from '../contract/agent-store.js';
import type { HomeDiscoveryContext } from '../types.js';
import { legacyStorageArtifacts } from './legacy-storage.js';
import { purgeOpencodeDb } from './opencode-db-purge.js';
import { opencodeDbFindings } from './opencode-db-rows.js';
import type { OpencodeLocation } from './opencode-locator.js';

/** Where a context's OpenCode data and database are (null for a relative home). */
type Locate = (ctx: HomeDiscoveryContext) => Promise<OpencodeLocation | null>;

/**
 * The purge of one OpenCode store: its rows in the shared database, its legacy JSON files, and what the last purge of
 * each id could not guarantee (kept per store, as the adapter kept it per instance). Every id is canonical.
 */
export interface OpencodePurge {
  /** The session's legacy JSON storage files (old homes only); its database rows are not paths. */
  artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]>;
  /**
   * Rows naming the id in either schema (then the refusal on an unknown layout); an unreadable database is one entry with
   * its reason. When no row names it, old copies of its deleted rows still in the file's bytes (a purge interrupted after
   * its delete) are one entry too (`deadCopyArtifacts`), which a purge finishes.
   */
  dbRows(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]>;
  /** A database of an unknown layout naming the id: the purge removes nothing. */
  purgeRefusals(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]>;
  /**
   * Deletes the session and its child sessions (`opencode session delete` for 2.x, then the 1.x rows), then legacy
   * storage; nothing more when the database purge refuses (its reason, when a write guard gave one, is the row failure).
   * Never rejects.
   */
  executePurge(id: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome>;
  /** What the last purge of the id could not guarantee (a busy `-wal` still holding the deleted text; a 2.x `session delete` run by the CLI). */
  purgeNotes(id: string, ctx: HomeDiscoveryContext): Promise<string[]>;
}

/** The purge of one OpenCode store over `ports`, locating each context with `locate`. */
export function opencodePurge(ports: Ports, locate: Locate): OpencodePurge {
  const { fs, proc } = ports;
  // What the last purge of a canonical id could not guarantee (a busy WAL still holding the deleted text).
  const notes = new Map<string, string[]>();

  return {
    async artifactPaths(id, ctx) {
      const loc = await locate(ctx);
      return loc === null ? [] : legacyStorageArtifacts(fs, loc.dataDir, id);
    },
    async dbRows(id, ctx) {
      const loc = await locate(ctx);
      if (loc === null || !(await pathExists(fs, loc.dbPath))) return [];
      try {
        const found = await withReadonlyDb(loc.dbPath, { fs }, (h) => {
          const f = opencodeDbFindings(h.db, loc.dbPath, id);
          return f.refusal === null ? f.rows : [...f.rows, f.refusal];
        });
        return found.length > 0 ? found : await deadCopyArtifacts(fs, loc.dbPath, [id]);
      } catch (err) {
        return [{ kind: 'file', path: loc.dbPath, reason: `unreadable: ${describeError(err)}` } as LeftArtifact];
      }
    },
    async purgeRefusals(id, ctx) {
      const loc = await locate(ctx);
      if (loc === null || !(await pathExists(fs, loc.dbPath))) return [];
      try {
        const refusal = await withReadonlyDb(loc.dbPath, { fs }, (h) => opencodeDbFindings(h.db, loc.dbPath, id).refusal);
        return refusal === null ? [] : [refusal];
      } catch {
        return [];
      }
    },
    async executePurge(id, ctx) {
      try {
        const loc = await locate(ctx);
        if (loc === null) return { removed: [] };
        const db = await purgeOpencodeDb(fs, proc, loc, id);
        if ((db.notes ?? []).length > 0) notes.set(id, db.notes ?? []);
        else notes.delete(id);
        // A refused database purge removes nothing else either: the residual says why, and a retry finds everything.
        const rowFailures = db.reason === undefined ? [] : [db.reason];
        if (db.refused) return { removed: db.removed, rowFailures };
        const files: ArtifactPath[] = [];
        for (const who of [...db.children, id]) files.push(...(await legacyStorageArtifacts(fs, loc.dataDir, who)));
        // Part folders are found only through their message folder: stop at a failure so a rerun still finds them.
        const done = await removeArtifacts(fs, files, { stopOnFailure: true });
        return { removed: [...db.removed, ...done.purged], rowFailures };
      } catch {
        return { removed: [] };
      }
    },
    async purgeNotes(id) {
      return [...(notes.get(id) ?? [])];
    },
  };
}

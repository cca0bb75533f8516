import type { FileSystemPort } from '../../ports/fs.js';
import { type Artifact, type LeftArtifact, formatArtifact } from '../../purge/artifact.js';
import type { ProcessPort } from '../../ports/process.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { pathExists } from '../common/artifacts.js';
import { dbWriteRefusal } from '../../sqlite/db-write-guard.js';
import { type OpencodeDbFindings, opencodeDbFindings } from './opencode-db-rows.js';
import type { OpencodeLocation } from './opencode-locator.js';
import { runOpencodeSessionDelete } from './opencode-session-delete.js';
import { deleteOpencodeV1Rows } from './opencode-v1-delete.js';
import { wipeOpencodeCopies } from './opencode-dead-copies.js';
import { deadCopiesArtifact } from '../../sqlite/finish-dead-copies.js';

/**
 * What a purge did to the OpenCode database: the rows removed, the child sessions they included, and whether it refused
 * (unknown layout naming the id, a failed `session delete`, an unwritable database) — a refusal removes nothing.
 * @public
 */
export interface OpencodeDbPurge {
  /** True when the purge refused (nothing more may be removed). */
  refused: boolean;
  /** What the files may still hold after the delete (a busy WAL), or why the database was not written. */
  notes?: string[];
  /** The rows removed. */
  removed: Artifact[];
  /** Why the database was not written, when a guard refused it (a link or a hard-linked file or sidecar). */
  reason?: LeftArtifact;
  /** The child sessions (any depth) collected before anything was deleted. */
  children: string[];
}

/**
 * Removes the conversation's rows: `opencode session delete` for a `session_v2` session (its child sessions go with it),
 * then the 1.x rows of the session and every child collected before that delete, then the old copies of them still in the
 * file's bytes ({@link wipeOpencodeDeadCopies}) — also when no row is left (a rerun after an interrupted purge). Never throws.
 * @public
 */
export async function purgeOpencodeDb(fs: FileSystemPort, proc: ProcessPort, loc: OpencodeLocation, id: string): Promise<OpencodeDbPurge> {
  const none = (refused: boolean, children: string[] = []): OpencodeDbPurge => ({ refused, removed: [], children });
  try {
    if (!(await pathExists(fs, loc.dbPath))) return none(false);
    const read = (): Promise<OpencodeDbFindings> =>
      withReadonlyDb(loc.dbPath, { fs }, (h) => opencodeDbFindings(h.db, loc.dbPath, id));
    const before = await read();
    if (!before.known) return none(before.rows.length > 0);
    // Both writes below (the CLI's and ours) would go through a linked or hard-linked file or sidecar to another file.
    const refusal = await dbWriteRefusal(fs, loc.dbPath);
    if (refusal !== null) return { ...none(true, before.children), notes: [refusal], reason: { kind: 'file', path: loc.dbPath, reason: `${refusal}: not purged` } };
    const removed: Artifact[] = [];
    if (before.inV2) {
      if (!(await runOpencodeSessionDelete(proc, loc, id))) return none(true, before.children);
      const after = await read();
      // A delete that exited 0 but left the session on record failed all the same: touch nothing more.
      if (after.inV2) return none(true, before.children);
      const still = new Set(after.rows.map((a) => formatArtifact(a)));
      removed.push(...before.rows.filter((a) => !still.has(formatArtifact(a))));
    }
    const notes: string[] = [];
    try {
      removed.push(...deleteOpencodeV1Rows(loc.dbPath, [id, ...before.children], notes));
    } catch {
      // Busy or unwritable: the 1.x rows stay (the transaction rolled back) and the residual names them.
      return { refused: true, removed, children: before.children };
    }
    // Also with no row left to delete: a purge interrupted after its delete committed left the old copies, and this
    // rerun finishes them (reported as removed when they are gone).
    const wiped = await wipeOpencodeCopies(fs, proc, loc.dbPath, [id, ...before.children], notes);
    if (removed.length === 0 && wiped !== null && wiped.before > 0 && wiped.after === 0) removed.push(deadCopiesArtifact(loc.dbPath, wiped.before));
    return { refused: false, removed, children: before.children, notes };
  } catch {
    return none(true);
  }
}

import { basename, dirname } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { FactClock } from '../common/remembered-fact.js';
import { type DirLook, dirLookOf, rememberedDirFact } from '../common/remembered-dir-fact.js';
import { AGY_DB_SIDECARS } from './agy-paths.js';
import { type AgyTrajectory, readAgyTrajectory } from './agy-trajectory.js';

/**
 * {@link readAgyTrajectory} of a conversation database, remembered for the port (with `now`, the ports' clock) under the
 * `lstat`s of its directory, of the file and of whichever sidecars are there, taken before the read (the file's own is the
 * read's regular-file check), once all have
 * settled (see `rememberedDirFact`): a later call of an unchanged database costs the directory's look (`look`: one per
 * batch) and one `lstat` of each file present — the database's own is also its regular-file check — and no open; any
 * change (a write, a checkpoint, a replacement, a link in its place, a sidecar appearing or going) reads afresh. Never
 * throws.
 * @public
 */
export async function rememberedAgyTrajectory(fs: FileSystemPort, dbPath: string, now?: FactClock, look: DirLook = dirLookOf(fs)): Promise<AgyTrajectory | null> {
  const base = basename(dbPath);
  const names = [base, ...AGY_DB_SIDECARS.map((s) => base + s)];
  return rememberedDirFact(fs, `agy.trajectory\0${dbPath}`, dirname(dbPath), names, now, (looks) => readAgyTrajectory(fs, dbPath, looks[0]), look).catch(() => null);
}

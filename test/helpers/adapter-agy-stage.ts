// A synthetic agy home laid out as the seeds describe the Antigravity CLI (no real CLI could be installed): two
// workspaces, conversations with real SQLite databases (one whose rows live only in -wal, from a killed writer), a
// superseded conversation the cache no longer maps, orphaned leftovers, and the shared cache — plus the oracle.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agyRootOf, agyTree, agyTreePaths, freshId, writeAgyCache, writeAgyDb } from './adapter-agy-files.js';
import { buildWalState } from './sqlite-wal-states.js';

/** One conversation of the stage and what a purge of it must do. */
export interface AgyStageConversation {
  id: string;
  /** The workspace the cache maps it to, or null when nothing on disk tells. */
  workspace: string | null;
  status: 'present' | 'leftovers-only';
  /** Its own artifacts (absolute paths). */
  files: string[];
  /** Shared files still naming it after a purge. */
  mentions: string[];
}

/** The stage: where it is, and its oracle. */
export interface AgyStage {
  home: string;
  wsA: string;
  wsB: string;
  cacheFile: string;
  conversations: AgyStageConversation[];
}

// In the past (2023), as a real conversation's times are: a file dated in the future never settles, so nothing read of it is remembered.
const T = 1_700_000_000_000;

function touch(path: string, ms: number): void {
  utimesSync(path, ms / 1000, ms / 1000);
}

/** Builds the stage under `root` (an empty real dir). */
export async function buildAgyStage(root: string): Promise<AgyStage> {
  const home = join(root, 'home');
  const wsA = join(root, 'ws-a');
  const wsB = join(root, 'ws b.v2_ü');
  for (const d of [home, wsA, wsB]) mkdirSync(d, { recursive: true });
  const [a1, a2, b1, orphan] = [freshId(), freshId(), freshId(), freshId()];

  // a1: the CLI was killed — every row in -wal, -shm kept; brain, annotation, lock; the newest.
  const p1 = agyTree(home, a1, ['brain', 'annotation', 'lock']);
  mkdirSync(join(p1.db, '..'), { recursive: true });
  await buildWalState('leftover', p1.db, ['CREATE TABLE steps (id INTEGER, body TEXT)', "INSERT INTO steps VALUES (1, 'hello')"]);
  for (const p of [p1.db, p1.wal]) touch(p, T + 60_000);
  // a2: an older conversation of ws-a, superseded in the cache (closed cleanly: db + brain only).
  const p2 = agyTree(home, a2, ['brain']);
  writeAgyDb(p2.db, T);
  // b1: ws-b's conversation, every artifact, the db closed cleanly.
  const p3 = agyTree(home, b1, ['brain', 'annotation', 'lock']);
  writeAgyDb(p3.db, T + 30_000);
  // orphan: an interrupted purge left a -wal, the annotation and the lock.
  const p4 = agyTree(home, orphan, ['wal', 'annotation', 'lock']);
  // Files that are no conversation's: settings, a log, an empty presence dir entry of nobody.
  writeFileSync(join(agyRootOf(home), 'settings.json'), '{"theme":"dark"}');
  mkdirSync(join(agyRootOf(home), 'logs'), { recursive: true });
  writeFileSync(join(agyRootOf(home), 'logs', 'cli.log'), 'started\n');
  const cacheFile = writeAgyCache(home, { [wsA]: a1, [wsB]: b1 });

  const own = (p: ReturnType<typeof agyTreePaths>, parts: ReadonlyArray<keyof typeof p>): string[] => parts.map((k) => p[k]).sort();
  return {
    home,
    wsA,
    wsB,
    cacheFile,
    conversations: [
      { id: a1, workspace: wsA, status: 'present', files: own(p1, ['db', 'wal', 'shm', 'brain', 'annotation', 'lock']), mentions: [cacheFile] },
      { id: a2, workspace: null, status: 'present', files: own(p2, ['db', 'brain']), mentions: [] },
      { id: b1, workspace: wsB, status: 'present', files: own(p3, ['db', 'brain', 'annotation', 'lock']), mentions: [cacheFile] },
      { id: orphan, workspace: null, status: 'leftovers-only', files: own(p4, ['wal', 'annotation', 'lock']), mentions: [] },
    ],
  };
}

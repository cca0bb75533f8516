import { join } from 'node:path';
import type { ArtifactPath } from '../common/artifacts.js';

/**
 * Where the Antigravity CLI keeps its conversations under one home: the root `<home>/.gemini/antigravity-cli` and its
 * per-conversation directories.
 * @public
 */
export interface AgyPaths {
  root: string;
  conversations: string;
  brain: string;
  annotations: string;
  presence: string;
  /** `cache/last_conversations.json`: `{ realpath(workspace): id }`, shared by every workspace. */
  cacheFile: string;
}

/**
 * The SQLite sidecars that sit beside a conversation database.
 * @public
 */
export const AGY_DB_SIDECARS = ['-wal', '-shm', '-journal'] as const;

/**
 * The agy directories under `homeDir`.
 * @public
 */
export function agyPaths(homeDir: string): AgyPaths {
  const root = join(homeDir, '.gemini', 'antigravity-cli');
  return {
    root,
    conversations: join(root, 'conversations'),
    brain: join(root, 'brain'),
    annotations: join(root, 'annotations'),
    presence: join(root, 'presence'),
    cacheFile: join(root, 'cache', 'last_conversations.json'),
  };
}

/**
 * The conversation database of a canonical id.
 * @public
 */
export function agyDbPath(p: AgyPaths, id: string): string {
  return join(p.conversations, `${id}.db`);
}

/**
 * The presence lock of a canonical id (held by a live CLI; removed last, and only once nothing uses the conversation).
 * @public
 */
export function agyLockPath(p: AgyPaths, id: string): string {
  return join(p.presence, `${id}.lock`);
}

/**
 * Every artifact of a canonical id in removal order — brain, annotation, the sidecars, the database, and the presence lock last.
 * @public
 */
export function agyArtifactPaths(p: AgyPaths, id: string): ArtifactPath[] {
  const db = agyDbPath(p, id);
  return [
    join(p.brain, id),
    join(p.annotations, `${id}.pbtxt`),
    ...AGY_DB_SIDECARS.map((s) => db + s),
    db,
    agyLockPath(p, id),
  ].map((path) => ({ root: p.root, path }));
}

/**
 * The files whose open holders mean the conversation is live: the database, its sidecars and the presence lock.
 * @public
 */
export function agyHeldPaths(p: AgyPaths, id: string): string[] {
  const db = agyDbPath(p, id);
  return [db, ...AGY_DB_SIDECARS.map((s) => db + s), agyLockPath(p, id)];
}

/**
 * The entry names a directory of the root may hold for a conversation; any other name there that contains the id is a
 * layout this adapter does not know.
 * @public
 */
export function agyKnownNames(dir: string, id: string): readonly string[] {
  switch (dir) {
    case 'conversations':
      return [`${id}.db`, ...AGY_DB_SIDECARS.map((s) => `${id}.db${s}`)];
    case 'brain':
      return [id];
    case 'annotations':
      return [`${id}.pbtxt`];
    case 'presence':
      return [`${id}.lock`];
    default:
      return [];
  }
}

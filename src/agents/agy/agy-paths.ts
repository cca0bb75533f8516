import { isAbsolute, join, normalize } from 'node:path';
import type { ArtifactPath } from '../common/artifacts.js';

/**
 * Where the Antigravity CLI keeps its conversations under one home: the CLI root `<GEMINI_HOME>/antigravity-cli`
 * (`GEMINI_HOME` defaults to `<home>/.gemini`), its per-conversation directories and shared files, and the ACP server's
 * root `<GEMINI_HOME>/antigravity-acp`.
 * @public
 */
export interface AgyPaths {
  /** The CLI root `<GEMINI_HOME>/antigravity-cli`. */
  root: string;
  /** `conversations/`: `<id>.db` (+ sidecars) and `<id>.pb`. */
  conversations: string;
  /** `brain/`: one display mirror dir per conversation. */
  brain: string;
  /** `annotations/`: `<id>.pbtxt`. */
  annotations: string;
  /** `presence/`: `<id>.lock`, held open while the CLI runs. */
  presence: string;
  /** `implicit/`: `<id>.pb`. */
  implicit: string;
  /** `cache/last_conversations.json`: `{ realpath(workspace): id }`, shared by every workspace. */
  cacheFile: string;
  /** `history.jsonl`: one line per prompt, shared by every conversation. */
  historyFile: string;
  /** `conversation_summaries.db`: the shared index with one row per conversation. */
  summariesDb: string;
  /** The ACP server's root `<GEMINI_HOME>/antigravity-acp`. */
  acpRoot: string;
  /** The ACP server's `conversations/`: `<id>.db` (+ sidecars) and `<id>.meta` (`{"cwd": …}`). */
  acpConversations: string;
}

/**
 * The SQLite sidecars that sit beside a conversation database.
 * @public
 */
export const AGY_DB_SIDECARS = ['-wal', '-shm', '-journal'] as const;

function absolute(value: string | undefined): string | null {
  if (value === undefined || value === '' || value.includes('\0') || !isAbsolute(value)) return null;
  return normalize(value).replace(/(.)\/+$/, '$1');
}

/**
 * The agy directories of a home: under `env.GEMINI_HOME` when it is an absolute path, else under `<homeDir>/.gemini`.
 * @public
 */
export function agyPaths(homeDir: string, env: Readonly<Record<string, string | undefined>> = {}): AgyPaths {
  const gemini = absolute(env['GEMINI_HOME']) ?? join(homeDir, '.gemini');
  const root = join(gemini, 'antigravity-cli');
  const acpRoot = join(gemini, 'antigravity-acp');
  return {
    root,
    conversations: join(root, 'conversations'),
    brain: join(root, 'brain'),
    annotations: join(root, 'annotations'),
    presence: join(root, 'presence'),
    implicit: join(root, 'implicit'),
    cacheFile: join(root, 'cache', 'last_conversations.json'),
    historyFile: join(root, 'history.jsonl'),
    summariesDb: join(root, 'conversation_summaries.db'),
    acpRoot,
    acpConversations: join(acpRoot, 'conversations'),
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
 * The ACP server's copy of a canonical id's database.
 * @public
 */
export function agyAcpDbPath(p: AgyPaths, id: string): string {
  return join(p.acpConversations, `${id}.db`);
}

/**
 * The ACP server's `<id>.meta` (its `cwd` is the only workspace record of an ACP conversation).
 * @public
 */
export function agyAcpMetaPath(p: AgyPaths, id: string): string {
  return join(p.acpConversations, `${id}.meta`);
}

/**
 * The presence lock of a canonical id (held by a live CLI; removed last, and only once nothing uses the conversation).
 * @public
 */
export function agyLockPath(p: AgyPaths, id: string): string {
  return join(p.presence, `${id}.lock`);
}

/**
 * The parent-side record of a subagent conversation, kept in its parent's brain dir.
 * @public
 */
export function agySubagentRecordPath(p: AgyPaths, parent: string, child: string): string {
  return join(p.brain, parent, '.system_generated', 'subagents', `${child}.json`);
}

/**
 * A canonical id's own artifacts in removal order, the presence lock excluded: brain, annotation, implicit and fork
 * `.pb`, the ACP copy (sidecars, database, then its `.meta`), the CLI database's sidecars and the database itself.
 * @public
 */
export function agyOwnPaths(p: AgyPaths, id: string): ArtifactPath[] {
  const db = agyDbPath(p, id);
  const acp = agyAcpDbPath(p, id);
  const cli = [join(p.brain, id), join(p.annotations, `${id}.pbtxt`), join(p.implicit, `${id}.pb`), join(p.conversations, `${id}.pb`)];
  return [
    ...cli.map((path) => ({ root: p.root, path })),
    ...[...AGY_DB_SIDECARS.map((s) => acp + s), acp, agyAcpMetaPath(p, id)].map((path) => ({ root: p.acpRoot, path })),
    ...[...AGY_DB_SIDECARS.map((s) => db + s), db].map((path) => ({ root: p.root, path })),
  ];
}

/**
 * Every artifact of a canonical id in removal order — its own paths ({@link agyOwnPaths}) and the presence lock last.
 * @public
 */
export function agyArtifactPaths(p: AgyPaths, id: string): ArtifactPath[] {
  return [...agyOwnPaths(p, id), { root: p.root, path: agyLockPath(p, id) }];
}

/**
 * The files whose open holders mean the conversation is live: the database and its sidecars (the CLI's and the ACP
 * server's) and the presence lock.
 * @public
 */
export function agyHeldPaths(p: AgyPaths, id: string): string[] {
  const db = agyDbPath(p, id);
  const acp = agyAcpDbPath(p, id);
  return [db, ...AGY_DB_SIDECARS.map((s) => db + s), agyLockPath(p, id), acp, ...AGY_DB_SIDECARS.map((s) => acp + s)];
}

/**
 * The entry names a directory of the CLI root (`acp` false) or of the ACP root may hold for a conversation; any other
 * name there that contains the id is a layout this adapter does not know.
 * @public
 */
export function agyKnownNames(dir: string, id: string, acp = false): readonly string[] {
  const db = [`${id}.db`, ...AGY_DB_SIDECARS.map((s) => `${id}.db${s}`)];
  if (acp) return dir === 'conversations' ? [...db, `${id}.meta`] : [];
  switch (dir) {
    case 'conversations':
      return [...db, `${id}.pb`];
    case 'brain':
      return [id];
    case 'annotations':
      return [`${id}.pbtxt`];
    case 'presence':
      return [`${id}.lock`];
    case 'implicit':
      return [`${id}.pb`];
    default:
      return [];
  }
}

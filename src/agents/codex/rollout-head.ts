import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What the first record of a rollout says about its conversation (`payload.id`, `payload.cwd`); either may be missing.
 * @public
 */
export interface RolloutHead {
  id: string | null;
  cwd: string | null;
  /**
   * Set only for a sub-agent thread's rollout (`source.subagent`, or a `session_id` other than its own id: Codex 0.171
   * records the spawning session's id there): the parent thread's id, lower case, or `''` when the head does not say.
   */
  parent?: string;
}

// The first line of a real rollout is ~26 KB (it carries the base instructions): one chunk normally holds it.
const FIRST_READ = 64 * 1024;
const MAX_READ = 1024 * 1024;
const NEWLINE = 0x0a;

function str(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}

function fromRecord(record: unknown): RolloutHead | null {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return null;
  const r = record as Record<string, unknown>;
  // session_meta records wrap the meta in `payload`; the oldest format put `id` at the top level.
  const payload = typeof r['payload'] === 'object' && r['payload'] !== null ? (r['payload'] as Record<string, unknown>) : r;
  const head: RolloutHead = { id: str(payload['id'])?.toLowerCase() ?? null, cwd: str(payload['cwd']) };
  if (head.id === null && head.cwd === null) return null;
  const parent = subagentParent(payload['source'], str(payload['session_id'])?.toLowerCase() ?? null, head.id);
  if (parent !== null) head.parent = parent;
  return head;
}

/**
 * The parent a rollout head or a `threads.source` value names for a sub-agent thread (`{"subagent":{"thread_spawn":
 * {"parent_thread_id":…}}}`, the JSON text or the parsed value), else the session id when it differs from the thread's own
 * id; `''` for a sub-agent whose parent is not said; null for a top-level thread.
 * @public
 */
export function subagentParent(source: unknown, sessionId: string | null, id: string | null): string | null {
  let src = source;
  if (typeof src === 'string' && src.startsWith('{')) {
    try {
      src = JSON.parse(src) as unknown;
    } catch {
      src = null;
    }
  }
  if (typeof src === 'object' && src !== null && !Array.isArray(src) && 'subagent' in src) {
    const sub = (src as Record<string, unknown>)['subagent'];
    const spawn = typeof sub === 'object' && sub !== null ? (sub as Record<string, unknown>)['thread_spawn'] : undefined;
    const pid = typeof spawn === 'object' && spawn !== null ? str((spawn as Record<string, unknown>)['parent_thread_id']) : null;
    return pid?.toLowerCase() ?? sessionId ?? '';
  }
  return sessionId !== null && id !== null && sessionId !== id ? sessionId : null;
}

// A first line longer than MAX_READ: the payload's id and cwd come before the long fields, so read them from the prefix.
function fromPrefix(text: string): RolloutHead | null {
  const at = text.indexOf('"payload":{');
  if (at < 0) return null;
  const body = text.slice(at);
  const uuid = '([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})';
  const id = new RegExp(`"id":"${uuid}"`).exec(body)?.[1] ?? null;
  const session = new RegExp(`"session_id":"${uuid}"`).exec(body)?.[1]?.toLowerCase() ?? null;
  const spawnParent = new RegExp(`"parent_thread_id":"${uuid}"`).exec(body)?.[1]?.toLowerCase() ?? null;
  const quoted = /"cwd":("(?:[^"\\]|\\.)*")/.exec(body)?.[1];
  let cwd: string | null = null;
  try {
    cwd = quoted === undefined ? null : str(JSON.parse(quoted));
  } catch {
    cwd = null;
  }
  if (id === null && cwd === null) return null;
  const head: RolloutHead = { id: id?.toLowerCase() ?? null, cwd };
  const parent = spawnParent ?? subagentParent(null, session, head.id);
  if (parent !== null) head.parent = parent;
  return head;
}

/**
 * Reads only a bounded head of a rollout (never the whole file) and parses its first line; null when it cannot be read or
 * says nothing about its conversation. The caller makes sure `path` is a regular file (a FIFO would block).
 * @public
 */
export async function readRolloutHead(fs: FileSystemPort, path: string): Promise<RolloutHead | null> {
  try {
    let bytes = await fs.readHead(path, FIRST_READ);
    let end = bytes.indexOf(NEWLINE);
    if (end < 0 && bytes.length === FIRST_READ) {
      bytes = await fs.readHead(path, MAX_READ);
      end = bytes.indexOf(NEWLINE);
    }
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, end < 0 ? bytes.length : end).toString('utf8');
    if (end < 0 && bytes.length === MAX_READ) return fromPrefix(text);
    return fromRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

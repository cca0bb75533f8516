import type { FileSystemPort } from '../../ports/fs.js';

/**
 * What the first record of a rollout says about its conversation (`payload.id`, `payload.cwd`); either may be missing.
 * @public
 */
export interface RolloutHead {
  id: string | null;
  cwd: string | null;
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
  const head = { id: str(payload['id'])?.toLowerCase() ?? null, cwd: str(payload['cwd']) };
  return head.id === null && head.cwd === null ? null : head;
}

// A first line longer than MAX_READ: the payload's id and cwd come before the long fields, so read them from the prefix.
function fromPrefix(text: string): RolloutHead | null {
  const at = text.indexOf('"payload":{');
  if (at < 0) return null;
  const body = text.slice(at);
  const id = /"id":"([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})"/.exec(body)?.[1] ?? null;
  const quoted = /"cwd":("(?:[^"\\]|\\.)*")/.exec(body)?.[1];
  let cwd: string | null = null;
  try {
    cwd = quoted === undefined ? null : str(JSON.parse(quoted));
  } catch {
    cwd = null;
  }
  return id === null && cwd === null ? null : { id: id?.toLowerCase() ?? null, cwd };
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

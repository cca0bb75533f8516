import { join } from 'node:path';
import { canonicalOpencodeId } from './opencode-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { confinedCheck } from '../../paths/confined-check.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { readAgyText } from '../common/read-text.js';

// OpenCode ≤ 1.1 kept JSON files under <data>/storage (a migrated home may still have them): message ids look like session ids.
const MESSAGE_FILE = /^msg_[0-9a-f]{12}[0-9A-Za-z]{14}\.json$/;
/** Per-session files keyed by the session id alone. */
const KEYED_FILES = ['session_diff', 'todo', 'share', 'session_share'];

async function names(fs: FileSystemPort, dir: string): Promise<string[]> {
  try {
    return (await fs.readdir(dir)).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

// Message ids are read only from a real message dir inside the root: a linked one is not followed.
async function messageIds(fs: FileSystemPort, root: string, dir: string): Promise<string[]> {
  try {
    const check = await confinedCheck(fs, root, dir);
    if (check.kind !== 'ok' || check.leaf !== 'dir') return [];
  } catch {
    return [];
  }
  return (await names(fs, dir)).filter((n) => MESSAGE_FILE.test(n)).map((n) => n.slice(0, -'.json'.length));
}

/**
 * The legacy JSON-storage artifacts of one session under the data dir, in removal order: each message's parts dir,
 * the message dir, the files keyed by the session id, and the session file(s) `storage/session/<project>/<id>.json` last
 * (it ties the rest to the conversation). Every path keeps the data dir as its root.
 * @public
 */
export async function legacyStorageArtifacts(fs: FileSystemPort, dataDir: string, sessionId: string): Promise<ArtifactPath[]> {
  const id = canonicalOpencodeId(sessionId);
  if (id === null) return [];
  const root = dataDir;
  const storage = join(dataDir, 'storage');
  const out: ArtifactPath[] = [];
  const messageDir = join(storage, 'message', id);
  for (const msg of await messageIds(fs, root, messageDir)) out.push({ root, path: join(storage, 'part', msg) });
  out.push({ root, path: messageDir });
  for (const kind of KEYED_FILES) out.push({ root, path: join(storage, kind, `${id}.json`) });
  for (const project of await names(fs, join(storage, 'session'))) out.push({ root, path: join(storage, 'session', project, `${id}.json`) });
  return out;
}

/** Larger than any legacy session file (a small JSON object: id, project, directory, title, times). */
const MAX_SESSION_FILE_BYTES = 1024 * 1024;

/**
 * What the legacy session file(s) `storage/session/<project>/<id>.json` of one session record: the `directory` of each
 * (null for one that records none: unreadable, not a regular file, malformed), and whether one names a parent session
 * (a child session is part of its parent's conversation). Never throws.
 * @public
 */
export async function legacySessionRecords(fs: FileSystemPort, dataDir: string, sessionId: string): Promise<{ directories: Array<string | null>; child: boolean }> {
  const id = canonicalOpencodeId(sessionId);
  const out = { directories: [] as Array<string | null>, child: false };
  if (id === null) return out;
  const sessions = join(dataDir, 'storage', 'session');
  for (const project of await names(fs, sessions)) {
    const text = await readAgyText(fs, join(sessions, project, `${id}.json`), MAX_SESSION_FILE_BYTES);
    if (text === null) continue;
    let info: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) info = parsed as Record<string, unknown>;
    } catch {
      // A malformed file records nothing.
    }
    const dir = info['directory'];
    out.directories.push(typeof dir === 'string' && dir !== '' && !dir.includes('\0') ? dir : null);
    if (typeof info['parentID'] === 'string') out.child = true;
  }
  return out;
}

import { join } from 'node:path';
import { normalizeAgentId } from '../../ids/agent-id.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import { type DirectoryMatcher, directoryMatcher } from '../agy/same-directory.js';
import { decodeGrokBucket } from './grok-encode.js';
import { listGrokDir, readGrokFile } from './grok-read.js';
import { readGrokSummary } from './grok-summary.js';

/** A `.cwd` holds one path; 64 KiB is far beyond any PATH_MAX. */
const MAX_CWD_BYTES = 64 * 1024;
const PARALLEL = 8;

/**
 * One session of a workspace, as grok's own listing sees it.
 * @public
 */
export interface GrokWorkspaceSession {
  /** The session id (the dir name, equal to `info.id`). */
  id: string;
  /** The session dir. */
  dir: string;
  /** `last_active_at`, else `updated_at`, epoch ms (null when neither parses). */
  activeMs: number | null;
  /** Hidden from grok's listing (a subagent child, or `hidden: true`). */
  hidden: boolean;
}

// The cwd a bucket stands for: its URL-decoded name, else its `.cwd` (a hashed slug bucket of a long path).
async function bucketCwd(fs: FileSystemPort, bucket: string, name: string): Promise<string | null> {
  const decoded = decodeGrokBucket(name);
  if (decoded !== null) return decoded;
  const read = await readGrokFile(fs, join(bucket, '.cwd'), MAX_CWD_BYTES);
  return read.kind === 'text' ? read.text.trim() : null;
}

/**
 * The bucket dirs under `sessions/` whose cwd is the workspace (compared by realpath: grok records the cwd its process
 * saw, a symlink-free path, which may not be how the workspace was given). Buckets that are links are skipped, as grok
 * skips them. Never throws.
 * @public
 */
export async function grokWorkspaceBuckets(fs: FileSystemPort, sessionsDir: string, here: DirectoryMatcher): Promise<string[]> {
  const entries = (await listGrokDir(fs, sessionsDir)) ?? [];
  const dirs = entries.filter((e) => e.kind === 'dir' && !e.name.startsWith('.'));
  const matched = await mapLimit(dirs, PARALLEL, async (e) => {
    const bucket = join(sessionsDir, e.name);
    const cwd = await bucketCwd(fs, bucket, e.name);
    return cwd !== null && (await here.matches(cwd)) ? bucket : null;
  });
  return matched.filter((b): b is string => b !== null).sort();
}

async function sessionAt(fs: FileSystemPort, bucket: string, name: string, here: DirectoryMatcher): Promise<GrokWorkspaceSession | null> {
  const id = normalizeAgentId('grok', name);
  if (id === null || id !== name) return null;
  const dir = join(bucket, name);
  const read = await readGrokSummary(fs, dir);
  if (read.kind !== 'ok') return null;
  const s = read.summary;
  if (s.id !== id || s.cwd === null || !(await here.matches(s.cwd))) return null;
  return { id, dir, activeMs: s.activeMs, hidden: s.hidden };
}

/**
 * Every session of the workspace (hidden ones included; `onlyId` limits the look to one id): a dir of a matching bucket
 * named by a canonical uuid, holding a regular `summary.json` whose `info.id` is the dir name and whose `info.cwd` is the
 * workspace. Newest first by `last_active_at` (else `updated_at`), then by id, as grok lists them. Never throws.
 * @public
 */
export async function grokWorkspaceSessions(fs: FileSystemPort, sessionsDir: string, workspace: string, onlyId?: string): Promise<GrokWorkspaceSession[]> {
  try {
    const here = await directoryMatcher(fs, workspace);
    const out: GrokWorkspaceSession[] = [];
    for (const bucket of await grokWorkspaceBuckets(fs, sessionsDir, here)) {
      const names = onlyId !== undefined ? [onlyId] : ((await listGrokDir(fs, bucket)) ?? []).filter((e) => e.kind === 'dir').map((e) => e.name);
      const found = await mapLimit(names, PARALLEL, (n) => sessionAt(fs, bucket, n, here));
      for (const s of found) if (s !== null && !out.some((o) => o.id === s.id)) out.push(s);
    }
    const at = (s: GrokWorkspaceSession): number => s.activeMs ?? Number.NEGATIVE_INFINITY;
    return out.sort((a, b) => at(b) - at(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  } catch {
    return [];
  }
}

import { join } from 'node:path';
import { canonicalGrokId } from './grok-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { LeftArtifact } from '../../purge/artifact.js';
import { listDirOrNull, readRegularFile } from '../common/read-regular.js';
import { readGrokSummary } from './grok-summary.js';

/** A `meta.json` is a pretty `SubagentMeta` of a few kilobytes (the prompt included). */
const MAX_META_BYTES = 4 * 1024 * 1024;

/**
 * One dir (or link) under a bucket that belongs to a session: its own dir, or a relocation's staging copy.
 * @public
 */
export interface GrokSessionDir {
  /** The session it belongs to (canonical). */
  id: string;
  /** Its path, `sessions/<bucket>/<id>` or `sessions/<bucket>/.<id>.relocating-<nonce>`. */
  path: string;
  /** `dir`, or `link` for a link under the id's name (removed as the link alone). */
  kind: 'dir' | 'link';
}

/**
 * Where one session id lives across every bucket: its dirs, what is refused (with why), and a note when its summary could
 * not be read (the dir is then planned by its name alone).
 * @public
 */
export interface GrokIdDirs {
  /** The dirs to remove. */
  dirs: GrokSessionDir[];
  /** What is named by the id but not removed. */
  refused: LeftArtifact[];
  /** Whether a summary says it is a subagent child (null when no summary was read). */
  subagent: boolean | null;
}

/**
 * Lists the buckets of `sessions/` (links included: what lies behind one is found, never followed). Never throws.
 * @public
 */
export async function grokBuckets(fs: FileSystemPort, sessionsDir: string): Promise<Array<{ path: string; link: boolean }>> {
  const entries = (await listDirOrNull(fs, sessionsDir)) ?? [];
  return entries
    .filter((e) => (e.kind === 'dir' || e.kind === 'symlink') && !e.name.startsWith('.'))
    .map((e) => ({ path: join(sessionsDir, e.name), link: e.kind === 'symlink' }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

async function kindOf(fs: FileSystemPort, path: string): Promise<string | null> {
  try {
    return (await fs.lstat(path)).kind;
  } catch {
    return null;
  }
}

/**
 * Finds every dir of `id` in every bucket. A dir whose summary names another session is refused (not understood); one
 * with no readable summary is planned by its name. With `requireSubagent` (a child named by a parent's `meta.json`), a
 * dir whose summary says it is not a subagent session is refused: the link may not be grok's. Never throws.
 * @public
 */
export async function grokIdDirs(fs: FileSystemPort, buckets: ReadonlyArray<{ path: string; link: boolean }>, id: string, requireSubagent: boolean): Promise<GrokIdDirs> {
  const out: GrokIdDirs = { dirs: [], refused: [], subagent: null };
  for (const b of buckets) {
    if (!b.link) out.dirs.push(...(await stagingCopies(fs, b.path, id)));
    const path = join(b.path, id);
    const kind = await kindOf(fs, path);
    if (kind === null) continue;
    if (b.link) {
      out.refused.push({ kind: 'dir', path, reason: 'behind a linked bucket: not followed' });
      continue;
    }
    if (kind === 'symlink') {
      out.dirs.push({ id, path, kind: 'link' });
      continue;
    }
    if (kind !== 'dir') {
      out.refused.push({ kind: 'file', path, reason: 'named by the id but not a directory grok writes: not removed' });
      continue;
    }
    const read = await readGrokSummary(fs, path);
    if (read.kind === 'ok') {
      if (read.summary.id !== id) {
        out.refused.push({ kind: 'dir', path, reason: `its summary.json names session ${read.summary.id ?? '(none)'}: not purged` });
        continue;
      }
      const sub = read.summary.kind?.startsWith('subagent') ?? false;
      out.subagent = (out.subagent ?? false) || sub;
      if (requireSubagent && !sub) {
        out.refused.push({ kind: 'dir', path, reason: 'a parent names it as a subagent child, but it is not a subagent session: not purged' });
        continue;
      }
    }
    out.dirs.push({ id, path, kind: 'dir' });
  }
  return out;
}

// A relocation's staging copy of the session (`.<id>.relocating-<nonce>`), left behind when grok crashed mid-move.
async function stagingCopies(fs: FileSystemPort, bucket: string, id: string): Promise<GrokSessionDir[]> {
  const prefix = `.${id}.relocating-`;
  return ((await listDirOrNull(fs, bucket)) ?? [])
    .filter((e) => e.kind === 'dir' && e.name.startsWith(prefix))
    .map((e) => ({ id, path: join(bucket, e.name), kind: 'dir' as const }));
}

/**
 * The child session ids a session dir's `subagents/<child>/meta.json` files name (`child_session_id`, else the dir's
 * name when the meta cannot be read), each a canonical uuid. Never throws.
 * @public
 */
export async function grokChildIds(fs: FileSystemPort, sessionDir: string): Promise<string[]> {
  const out = new Set<string>();
  const subagents = join(sessionDir, 'subagents');
  if ((await kindOf(fs, subagents)) !== 'dir') return [];
  for (const e of (await listDirOrNull(fs, subagents)) ?? []) {
    if (e.kind !== 'dir') continue;
    const read = await readRegularFile(fs, join(subagents, e.name, 'meta.json'), MAX_META_BYTES);
    let child: string | null = null;
    if (read.kind === 'text') {
      try {
        const meta = JSON.parse(read.text) as unknown;
        if (meta !== null && typeof meta === 'object') child = canonicalGrokId((meta as Record<string, unknown>)['child_session_id']);
      } catch {
        child = null;
      }
    }
    child ??= canonicalGrokId(e.name);
    if (child !== null) out.add(child);
  }
  return [...out].sort();
}

import { join } from 'node:path';
import { canonicalGrokId } from './grok-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import type { DirectoryMatcher } from '../common/same-directory.js';
import { type GrokClock, GrokPlainCwds } from './grok-plain-cwds.js';
import { listDirOrNull } from '../common/read-regular.js';
import type { GrokSummaryRead } from './grok-summary.js';
import { rememberedGrokSummary } from './grok-summary-memory.js';
import { grokBucketCwds, grokWorkspaceBuckets, grokWorkspaceMatch } from './grok-workspace-buckets.js';
// Summary reads of one bucket in flight at once (each is an lstat, an open and a read: the thread pool stays busy).
const READS = 32;

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

/**
 * Reads a session dir's `summary.json` (as `readGrokSummary` does; a batch may share reads, or remember them).
 * @public
 */
export type GrokSummaryReader = (sessionDir: string) => Promise<GrokSummaryRead>;

async function sessionAt(bucket: string, name: string, here: DirectoryMatcher, summaryOf: GrokSummaryReader): Promise<GrokWorkspaceSession | null> {
  const id = canonicalGrokId(name);
  if (id === null || id !== name) return null;
  const dir = join(bucket, name);
  const read = await summaryOf(dir);
  if (read.kind !== 'ok') return null;
  const s = read.summary;
  if (s.id !== id || s.cwd === null || !(await here.matches(s.cwd))) return null;
  return { id, dir, activeMs: s.activeMs, hidden: s.hidden };
}

/**
 * The sessions in the workspace's matching buckets ({@link grokWorkspaceBuckets}; hidden ones included; `onlyId` limits
 * the look to one id): a dir named by a canonical uuid, holding a regular `summary.json` whose `info.id` is the dir name
 * and whose `info.cwd` is the workspace. Newest first by `last_active_at` (else `updated_at`), then by id, as grok lists
 * them. `summaryOf` reads each `summary.json` (default: afresh). Never throws.
 * @public
 */
export async function grokSessionsIn(
  fs: FileSystemPort,
  matched: readonly string[],
  here: DirectoryMatcher,
  onlyId?: string,
  summaryOf: GrokSummaryReader = (dir) => rememberedGrokSummary(fs, dir),
): Promise<GrokWorkspaceSession[]> {
  try {
    const out: GrokWorkspaceSession[] = [];
    const seen = new Set<string>();
    for (const bucket of matched) {
      const names = onlyId !== undefined ? [onlyId] : ((await listDirOrNull(fs, bucket)) ?? []).filter((e) => e.kind === 'dir').map((e) => e.name);
      const found = await mapLimit(names, READS, (n) => sessionAt(bucket, n, here, summaryOf));
      for (const s of found) if (s !== null && !seen.has(s.id)) seen.add(s.id), out.push(s);
    }
    const at = (s: GrokWorkspaceSession): number => s.activeMs ?? Number.NEGATIVE_INFINITY;
    return out.sort((a, b) => at(b) - at(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  } catch {
    return [];
  }
}

/**
 * Every session of the workspace ({@link grokSessionsIn} of its matching buckets), from one listing of `sessions/`;
 * `now` lets the bucket cwds known to be plain, and each `summary.json` read, be remembered across calls. Never throws.
 * @public
 */
export async function grokWorkspaceSessions(fs: FileSystemPort, sessionsDir: string, workspace: string, now?: GrokClock, onlyId?: string): Promise<GrokWorkspaceSession[]> {
  try {
    const [buckets, match] = await Promise.all([grokBucketCwds(fs, sessionsDir, now), grokWorkspaceMatch(fs, workspace, new GrokPlainCwds(fs, now))]);
    return await grokSessionsIn(fs, await grokWorkspaceBuckets(fs, buckets, match), match.here, onlyId, (dir) => rememberedGrokSummary(fs, dir, now));
  } catch {
    return [];
  }
}

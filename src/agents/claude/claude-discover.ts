import type { FileSystemPort } from '../../ports/fs.js';
import type { HomeDiscoveryContext } from '../types.js';
import type { ClaudeLocations } from './claude-locations.js';
import { canonicalClaudeId } from './claude-ids.js';
import { workspaceTranscripts } from './transcript-scan.js';
import { storeConversations, unknownStores } from './unknown-stores.js';
import { claudeWorkspace, type ClaudeWorkspace } from './workspace-match.js';

async function storeStarts(fs: FileSystemPort, loc: ClaudeLocations, ws: ClaudeWorkspace): Promise<Map<string, number | null>> {
  const out = new Map<string, number | null>();
  const dbs = await unknownStores(fs, loc.config);
  if (dbs.length === 0) return out;
  for (const c of await storeConversations(fs, dbs, [...new Set([ws.real, ws.given])])) {
    const id = canonicalClaudeId(c.id);
    if (id === null) continue;
    const prev = out.get(id);
    out.set(id, prev === undefined || prev === null ? c.startMs : c.startMs === null ? prev : Math.min(prev, c.startMs));
  }
  return out;
}

/**
 * The ids of the workspace's conversations, newest start first: transcripts of its key dir whose first recorded cwd is the
 * workspace (only their heads are read), plus what an unknown store records for it; started at or after `ctx.epoch` when
 * given (a start that cannot be told is then left out), never an id another row records.
 * @public
 */
export async function discoverClaude(fs: FileSystemPort, loc: ClaudeLocations, ctx: HomeDiscoveryContext): Promise<string[]> {
  const ws = await claudeWorkspace(fs, ctx.workspace);
  const [transcripts, stored] = await Promise.all([workspaceTranscripts(fs, loc.discoverProjects, ws), storeStarts(fs, loc, ws)]);
  const starts = new Map<string, number | null>(stored);
  for (const t of transcripts) starts.set(t.id, t.startMs);
  const claimed = new Set((ctx.siblingClaimedIds ?? []).map((i) => canonicalClaudeId(i)));
  const floor = ctx.epoch === undefined ? null : ctx.epoch * 1000;
  return [...starts]
    .filter(([id, start]) => !claimed.has(id) && (floor === null || (start !== null && start >= floor)))
    .sort(([a, sa], [b, sb]) => (sb ?? -Infinity) - (sa ?? -Infinity) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id]) => id);
}

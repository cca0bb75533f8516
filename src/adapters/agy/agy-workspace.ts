import type { FileSystemPort } from '../../ports/fs.js';
import type { HomeDiscoveryContext } from '../types.js';
import { type AgyCacheEntry, readAgyCache } from './agy-cache.js';
import type { AgyPaths } from './agy-paths.js';
import { type AgyConversation, agyIsSubagent, agyRecordedWorkspaces, readAgyConversation, surveyAgy } from './agy-survey.js';
import { type DirectoryMatcher, directoryMatcher } from './same-directory.js';

/**
 * Whether a conversation belongs to a workspace: `here` / `elsewhere` by its own record (the CLI database's workspaces,
 * else the ACP `.meta` cwd) or, when it records none, by the cache's hint; `unknown` when nothing tells.
 * @public
 */
export type AgyBelonging = 'here' | 'elsewhere' | 'unknown';

/**
 * Decides {@link AgyBelonging} for one conversation: its own record wins over the cache, which only speaks for a
 * conversation that records no workspace.
 * @public
 */
export async function agyBelonging(c: AgyConversation, cache: readonly AgyCacheEntry[], here: DirectoryMatcher): Promise<AgyBelonging> {
  const recorded = agyRecordedWorkspaces(c);
  const candidates = recorded.length > 0 ? recorded : cache.filter((e) => e.id === c.id).map((e) => e.workspace);
  if (candidates.length === 0) return 'unknown';
  for (const w of candidates) if (await here.matches(w)) return 'here';
  return 'elsewhere';
}

/**
 * The top-level conversations (subagents excluded) that belong to the workspace, active at or after `ctx.epoch`,
 * newest first — every database of the CLI and ACP roots is read, the cache only adds hints. Never throws.
 * @public
 */
export async function discoverAgy(fs: FileSystemPort, p: AgyPaths, ctx: HomeDiscoveryContext): Promise<string[]> {
  try {
    const here = await directoryMatcher(fs, ctx.workspace);
    const cache = await readAgyCache(fs, p.cacheFile);
    const found: AgyConversation[] = [];
    for (const c of await surveyAgy(fs, p, cache.map((e) => e.id))) {
      if (agyIsSubagent(c) || (await agyBelonging(c, cache, here)) !== 'here') continue;
      if (ctx.epoch !== undefined && !(c.activityMs >= ctx.epoch * 1000)) continue;
      found.push(c);
    }
    return found.sort((a, b) => b.activityMs - a.activityMs || a.id.localeCompare(b.id)).map((f) => f.id);
  } catch {
    return [];
  }
}

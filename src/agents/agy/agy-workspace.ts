import type { FileSystemPort } from '../../ports/fs.js';
import type { HomeDiscoveryContext, RemainsBelonging } from '../types.js';
import { readAgyAcpCwd } from './agy-acp-meta.js';
import { type AgyCacheEntry, readAgyCache } from './agy-cache.js';
import { type AgyPaths, agyAcpDbPath, agyAcpMetaPath, agyDbPath } from './agy-paths.js';
import { isAgySqliteFile } from '../common/read-text.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import { type AgyConversation, agyIsSubagent, agyRecordedWorkspaces, readAgyConversation, surveyAgy } from './agy-survey.js';
import { type DirectoryMatcher, directoryMatcher } from '../common/same-directory.js';

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

/**
 * Where what is left of a conversation belongs once neither of its databases opens with a schema (a purge stopped
 * part-way removed a database or its `-wal`; each is gone or a SQLite file, never a damaged one): by the ACP `.meta` cwd when that file is left, else by the
 * last-conversation cache, as {@link agyBelonging} decides (`unknown` is `unrecorded`). Null while a database still opens
 * (the conversation is whole: its verification answers). Never throws.
 * @public
 */
export async function agyRemainsBelonging(fs: FileSystemPort, p: AgyPaths, id: string, workspace: string): Promise<RemainsBelonging | null> {
  try {
    if ((await readAgyConversation(fs, p, id)) !== null) return null;
    // A database file that is there but no SQLite file (a damaged header) may still be a whole conversation: not remains.
    for (const db of [agyDbPath(p, id), agyAcpDbPath(p, id)]) {
      const st = await lstatOrNull(fs, db);
      if (st !== null && !(await isAgySqliteFile(fs, db, st))) return null;
    }
    const acpCwd = await readAgyAcpCwd(fs, agyAcpMetaPath(p, id));
    const cache = acpCwd === null ? await readAgyCache(fs, p.cacheFile) : [];
    const left: AgyConversation = { id, cli: null, acp: false, acpCwd, activityMs: Number.NEGATIVE_INFINITY };
    const belongs = await agyBelonging(left, cache, await directoryMatcher(fs, workspace));
    return belongs === 'unknown' ? 'unrecorded' : belongs;
  } catch {
    return null;
  }
}

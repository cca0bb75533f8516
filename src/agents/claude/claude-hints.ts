import { join, resolve } from 'node:path';
import { psHint, shellQuote as quote } from '../common/in-use.js';
import type { HomeDiscoveryContext } from '../types.js';
import { claudeLocations } from './claude-locations.js';

/**
 * The commands a person runs to see what holds a Claude conversation: the real `sessions/` dir first (the live-session files
 * and the one naming the id), then every process naming it; an implausible id is quoted, never pasted raw.
 * @public
 */
export function claudeInUseHints(config: string, id: string): string[] {
  const sessions = join(config, 'sessions');
  const q = quote(id);
  return [`ls -l ${quote(sessions)}/`, `grep -l ${q} ${quote(sessions)}/*.json`, q === id ? psHint(id) : `ps -axww | grep -F -- ${q}`];
}

/**
 * {@link claudeInUseHints} for a context: the config root of `ctx.env`, else of the caller's own environment `own`, but
 * only for the caller's own home (compared as paths: the synchronous twin of `agentEnv`).
 * @public
 */
export function claudeHintsFor(id: string, ctx: HomeDiscoveryContext, own: Readonly<Record<string, string | undefined>>): string[] {
  const home = own['HOME'];
  const env = ctx.env ?? (home !== undefined && home !== '' && resolve(home) === resolve(ctx.home) ? own : {});
  return claudeInUseHints(claudeLocations(env, ctx.home, ctx.workspace).config, id);
}

import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import type { HomeDiscoveryContext } from '../types.js';

async function same(fs: FileSystemPort, a: string, b: string): Promise<boolean> {
  if (a === b) return true;
  const [ra, rb] = await Promise.all([fs.realpath(a).catch(() => a), fs.realpath(b).catch(() => b)]);
  return ra === rb;
}

/**
 * The environment that locates an agent's dirs for `ctx`: `ctx.env` when given; else the caller's own environment, but only
 * when `ctx.home` is the caller's HOME — a sandbox home never inherits the caller's `CLAUDE_CONFIG_DIR` or `CODEX_HOME`.
 * @public
 */
export async function agentEnv(fs: FileSystemPort, proc: ProcessPort, ctx: HomeDiscoveryContext): Promise<Readonly<Record<string, string | undefined>>> {
  if (ctx.env !== undefined) return ctx.env;
  const own = proc.env();
  const home = own['HOME'];
  return home !== undefined && home !== '' && (await same(fs, home, ctx.home)) ? own : {};
}

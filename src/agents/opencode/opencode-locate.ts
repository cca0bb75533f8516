import type { Ports } from '../../ports/index.js';
import { homeChecked } from '../../validation/discovery-context.js';
import { agentEnv } from '../common/agent-env.js';
import type { HomeDiscoveryContext } from '../types.js';
import { type OpencodeLocation, opencodeLocatorOf } from './opencode-locator.js';

/**
 * What a spawn of the locator waits for: the argument check's stat of the home (which runs while the read-only methods
 * read); a bad home rejects it, so nothing is spawned for one.
 */
export function opencodeHomeGate(fs: Ports['fs'], ctx: HomeDiscoveryContext): () => Promise<void> {
  return () => homeChecked(fs, ctx);
}

/**
 * Where this context's OpenCode data and database are (null for a relative home): the data dir from the agent env
 * (`agentEnv`: the caller's `XDG_DATA_HOME` only for the caller's own home), the database from the locator of these ports.
 */
export async function locateOpencode(ports: Pick<Ports, 'fs' | 'proc'>, ctx: HomeDiscoveryContext): Promise<OpencodeLocation | null> {
  const env = await agentEnv(ports.fs, ports.proc, ctx);
  return opencodeLocatorOf(ports.fs, ports.proc).locate(ctx.home, env, opencodeHomeGate(ports.fs, ctx));
}

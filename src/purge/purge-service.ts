import { getAdapter } from '../adapters/get-adapter.js';
import type { AgentAdapter, DiscoveryContext } from '../adapters/types.js';
import { isPlausibleId } from '../ids/agent-id.js';
import { AGENT_NAMES, type AgentName, requireAgentName } from '../ids/agent-names.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import type { PurgeResult } from './purge-result.js';

/**
 * Options of {@link PurgeService.purge}.
 * @public
 */
export interface PurgeOptions {
  /** The home whose agent dirs hold the conversation. */
  home: string;
  /** The workspace (default: the home). */
  workspace?: string;
  /** The agent environment (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_DATA_HOME …); default: the caller's, when `home` is the caller's HOME. */
  env?: Record<string, string | undefined>;
}

/**
 * Purges one conversation by agent or `auto` (resolved from what is on disk): the in-use gate runs before any removal,
 * and a refused purge removes nothing.
 * @public
 */
export class PurgeService {
  readonly #ports: Ports;

  /** A service on the given ports; those not given are Node's ({@link nodePorts}). */
  constructor(opts: { ports?: Partial<Ports> } = {}) {
    this.#ports = resolvePorts(opts.ports);
  }

  /** The adapter of an agent, on this service's ports. */
  adapter(agent: AgentName): AgentAdapter {
    return getAdapter(agent, { ports: this.#ports });
  }

  /**
   * Which agent has artifacts of `id` on disk (orphaned leftovers and remains behind a linked dir count), or null.
   */
  async resolve(id: string, ctx: DiscoveryContext): Promise<AgentName | null> {
    for (const agent of AGENT_NAMES) {
      if (isPlausibleId(agent, id) && (await this.adapter(agent).hasArtifacts(id, ctx))) return agent;
    }
    return null;
  }

  /**
   * Removes every artifact of the conversation unless a live process uses it.
   * @example
   * ```ts
   * const result = await new PurgeService().purge('auto', id, { home });
   * if (result.kind === 'in-use') report(result.holders, result.hints); // nothing was removed
   * ```
   */
  async purge(agent: AgentName | 'auto', id: string, opts: PurgeOptions): Promise<PurgeResult> {
    const ctx: DiscoveryContext = { workspace: opts.workspace ?? opts.home, homeDir: opts.home, ...(opts.env === undefined ? {} : { env: opts.env }) };
    const resolved = agent === 'auto' ? await this.resolve(id, ctx) : requireAgentName(agent);
    if (resolved === null || !isPlausibleId(resolved, id)) return { kind: 'unresolved', agent: null };
    const adapter = this.adapter(resolved);
    const holders = await adapter.inUseHolders(id, ctx);
    if (holders.length > 0) {
      // One entry per process: a holder of several files (or named and holding) is listed once.
      const byPid = new Map(holders.map((h) => [h.pid, { pid: h.pid, command: h.command }] as const));
      return { kind: 'in-use', agent: resolved, holders: [...byPid.values()], hints: adapter.inUseHints(id, ctx), inUse: true };
    }
    const purged = await adapter.purgeArtifacts(id, ctx);
    const [residual, mentions] = await Promise.all([adapter.residualArtifacts(id, ctx), adapter.mentions(id, ctx)]);
    return { kind: 'purged', agent: resolved, purged, residual, mentions, notes: [], inUse: false };
  }
}

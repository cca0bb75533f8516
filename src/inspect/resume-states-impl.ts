import { adaptersOf } from '../agents/adapters-of.js';
import { requireAgentName } from '../ids/agent-names.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { outsideAdapter } from '../agents/outside-agents.js';
import { agentsOf } from '../registry/registry-agents.js';
import type { VerifyQuery } from '../agents/types.js';
import type { Ports } from '../ports/index.js';
import { recordedId, rowAgent } from '../registry/row-agent.js';
import type { SessionRow } from '../registry/session-row.js';
import { type ReadScopeStats, withReadScope } from '../sqlite/read-scope.js';
import { requireDiscoveryContext } from '../validation/discovery-context.js';

/**
 * Whether a row's conversation can be resumed: `yes` when its pinned conversation is on disk for the row's cwd, `no` when
 * it is not (or the row records none), `unknown` when the check failed.
 * @public
 */
export type ResumeState = 'yes' | 'no' | 'unknown';

/**
 * Options of {@link resumeStates}.
 * @public
 */
export interface ResumeStatesOptions {
  /** The registry's workspace: a row without a pane cwd is checked against it. */
  workspace: string;
  /** The home whose agent stores are read. */
  home: string;
  /** The agents' environment (CODEX_HOME, XDG_DATA_HOME, PATH …); default: the ProcessPort's. */
  env?: Record<string, string | undefined>;
  /** The ports (default Node's); the adapters are the ports' shared set. */
  ports?: Partial<Ports>;
  /** Agents defined outside the package (`defineAgent`) rows may name, checked through their stores; none by default. */
  agents?: readonly AgentDefinition<string>[] | undefined;
  /** Filled with what the call opened (each database once). */
  stats?: ReadScopeStats;
}

/**
 * The resume state of every row, in order, in one pass: each agent's store is opened once for the whole call (not once
 * per row), and the adapters (with OpenCode's `debug paths` answer) are the ports' one shared set.
 * @example
 * ```ts
 * const states = await resumeStates((await registry.snapshot()).herdr_sessions, { workspace, home });
 * ```
 * @public
 */
export async function resumeStates(rows: readonly SessionRow[], opts: ResumeStatesOptions): Promise<ResumeState[]> {
  const adapters = adaptersOf(opts.ports);
  const known = agentsOf({ agents: opts.agents });
  const env = opts.env === undefined ? {} : { env: opts.env };
  const given = { workspace: opts.workspace, home: opts.home, ...env };
  // The context checked once for every agent (its shape, the home a directory), not once per agent; a bad one is left to
  // each agent's own check, which refuses it (its rows are then unknown).
  const ctx = await requireDiscoveryContext(adapters.ports.fs, given).catch(() => given);
  // One verifyMany per agent (each store opened and probed once for its rows), every agent's batch at once.
  const out: ResumeState[] = rows.map(() => 'no');
  const byAgent = new Map<string, { at: number[]; queries: VerifyQuery[] }>();
  rows.forEach((row, i) => {
    const id = recordedId(row, { agents: opts.agents });
    const agent = rowAgent<string>(row, { agents: opts.agents });
    if (id === null || agent === undefined || agent === null) return;
    let b = byAgent.get(agent);
    if (b === undefined) byAgent.set(agent, (b = { at: [], queries: [] }));
    b.at.push(i);
    b.queries.push({ id, workspace: row.pane?.cwd ?? opts.workspace });
  });
  await withReadScope(
    () =>
      Promise.all(
        [...byAgent].map(async ([agent, b]) => {
          let ok: boolean[] | null;
          try {
            const outside = known.outside(agent);
            const a = outside === undefined ? adapters.get(requireAgentName(agent)) : outsideAdapter(adapters.ports, outside);
            ok = a.verifyMany === undefined
              ? await Promise.all(b.queries.map((q) => a.verifyArtifact(q.id, { ...ctx, workspace: q.workspace ?? opts.workspace }, 'verify')))
              : await a.verifyMany(b.queries, ctx);
          } catch {
            ok = null;
          }
          b.at.forEach((i, k) => (out[i] = ok === null ? 'unknown' : ok[k] === true ? 'yes' : 'no'));
        }),
      ),
    opts.stats,
  );
  return out;
}

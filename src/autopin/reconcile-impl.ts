import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import { MamError } from '../errors.js';
import { type AgentName, builtinAgent } from '../ids/agent-names.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { agentsBesideRegistry } from '../registry/agents-beside-registry.js';
import { idsClaimedByOthers } from '../registry/ids-claimed-by-others.js';
import { registryAgents } from '../registry/registry-agents.js';
import { recordedIdIn, rowAgentIn } from '../registry/row-agent.js';
import { RegistryFileRefusedError } from '../registry/registry-file-refused-error.js';
import { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';
import { AutoPinArgumentError } from './autopin-argument-error.js';
import type { PinSource } from './autopin-result.js';
import { captureRowId } from './capture-row-id.js';
import { pinGuarded } from './pin-guarded.js';
import { checkOptions, checkPathArg, commonOptionShape, objectSchema, optionsSchema, workspaceExists } from '../validation/workspace-args.js';
import { lazySchema, type Zod } from '../lazy-zod.js';

const reconcileOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), registry: objectSchema(z), apply: z.boolean({ error: 'must be a boolean' }) }));

/** Checks {@link reconcile}'s options. */
export function checkReconcileOptions<Extra extends string = never>(opts: ReconcileOptions<Extra> | undefined): ReconcileOptions<Extra> {
  return checkOptions(reconcileOptions, 'opts', opts);
}

/**
 * Options of {@link reconcile}.
 * @public
 */
export interface ReconcileOptions<Extra extends string = never> {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** Pin what is captured; default false: a dry run that writes nothing. */
  apply?: boolean;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment; default: each adapter reads the ProcessPort's. */
  env?: Record<string, string | undefined>;
  /** The workspace's registry, when the caller already has one (default a new one on the same ports, knowing `agents`). */
  registry?: SessionRegistry;
  /**
   * Agents defined outside the package (`defineAgent`) a row may name, after the built-ins: a running row of a
   * post-discovered one with no pinned id is captured from its store and pinned under its definition's `ownKey`.
   * Default: the `agents` of `registry` when given, else none. A `registry` given must know each of them.
   */
  agents?: readonly AgentDefinition<Extra>[];
}

/**
 * One drifted row (running, post-discovered, no pinned id) and what reconcile found: the id it would pin (dry run), the
 * id it pinned (`apply`), or why none can be pinned.
 * @public
 */
export type ReconcileEntry<Extra extends string = never> =
  | { name: string; agent: AgentName | Extra; outcome: 'would-pin' | 'pinned'; id: string; source: PinSource }
  | { name: string; agent: AgentName | Extra; outcome: 'unresolved'; reason: string; candidates: string[] };

/**
 * What {@link reconcile} did for a workspace.
 * @public
 */
export interface ReconcileReport<Extra extends string = never> {
  /** The workspace reconciled. */
  workspace: string;
  /** Whether ids were pinned (`true`) or only proposed in a dry run. */
  apply: boolean;
  /** One entry per drifted row, in registry order; empty when nothing drifted. */
  entries: ReconcileEntry<Extra>[];
}

// The agent of a drifted row (running, of a post-discovered agent, no id recorded), else null.
function drifted<Extra extends string>(row: SessionRow, agents: AgentCatalog<Extra>): AgentName | Extra | null {
  const agent = rowAgentIn(row, agents);
  if (row.status !== 'running' || agent === undefined || recordedIdIn(row, agents) !== null) return null;
  const definition = agents.outside(agent) ?? builtinAgent(agent as AgentName);
  return definition.idLifecycle === 'post_discovered' ? agent : null;
}

/**
 * Drift C of a workspace: every running post-discovered row (agy, codex, hermes, opencode, or an outside agent of
 * `opts.agents` whose ids are post-discovered) with no pinned id gets the
 * capture AutoPin uses (herdr's report first, verified on disk; else the adapter's capture rule). A dry run by default —
 * the registry is not written and an id proposed for one row counts as claimed for the next; with `apply` each captured id
 * is pinned through a guarded update. Rows are taken one at a time, in registry order. A workspace that is not an
 * absolute path to an existing directory, or a bad option, throws an {@link InvalidArgumentError} naming it.
 * @example
 * ```ts
 * const { entries } = await reconcile('/repo');            // what would be pinned
 * await reconcile('/repo', { apply: true });               // pin it
 * ```
 * @public
 */
export async function reconcile<Extra extends string = never>(workspace: string, options: ReconcileOptions<Extra> = {}): Promise<ReconcileReport<Extra>> {
  checkPathArg('workspace', workspace);
  const opts = checkReconcileOptions(options);
  const ports = resolvePorts(opts.ports);
  await workspaceExists(ports.fs, 'workspace', workspace)();
  const home = opts.home ?? ports.proc.env()['HOME'];
  if (home === undefined || home === '') throw new AutoPinArgumentError('no home directory: pass `home`, or set HOME in the environment the ProcessPort reports');
  const defs = agentsBesideRegistry<Extra>(options.agents, options.registry);
  const agents = registryAgents<Extra>(defs, 'opts.agents');
  const registry = opts.registry ?? new SessionRegistry(workspace, { ports, agents: defs });
  const apply = opts.apply === true;
  const deps = { ports, home, env: opts.env, ...(defs.length === 0 ? {} : { agents: defs }) };
  const proposed: string[] = [];
  const entries: ReconcileEntry<Extra>[] = [];
  const first = await registry.snapshot();
  // Pins are written one row at a time: a registry that cannot be written is refused once, before any capture.
  if (apply) await registry.checkFiles();
  for (const seen of first.herdr_sessions) {
    const agent = drifted(seen, agents);
    if (agent === null) continue;
    // Each row against the registry as it is now: a pin made for an earlier row is claimed for this one.
    const state = apply ? await registry.snapshot() : first;
    const row = state.herdr_sessions.find((r) => r.name === seen.name);
    if (row === undefined || drifted(row, agents) === null) continue;
    // Every own key the registry knows counts (it may know more agents than reconcile was given).
    const cap = await captureRowId(deps, row, agent, [...idsClaimedByOthers(state, row.name, { agents: registry.agents }), ...proposed]);
    if (cap.kind === 'none') {
      entries.push({ name: row.name, agent, outcome: 'unresolved', reason: cap.reason, candidates: cap.candidates });
      continue;
    }
    if (!apply) {
      proposed.push(cap.id);
      entries.push({ name: row.name, agent, outcome: 'would-pin', id: cap.id, source: cap.source });
      continue;
    }
    let pinned: string;
    try {
      pinned = await pinGuarded(registry, row, agent, cap.id);
    } catch (err) {
      if (!(err instanceof MamError) || err instanceof RegistryFileRefusedError) throw err;
      pinned = `registry error: ${err.message}`;
    }
    entries.push(pinned === 'pinned'
      ? { name: row.name, agent, outcome: 'pinned', id: cap.id, source: cap.source }
      : { name: row.name, agent, outcome: 'unresolved', reason: pinned, candidates: [cap.id] });
  }
  return { workspace, apply, entries };
}

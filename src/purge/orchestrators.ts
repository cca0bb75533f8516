import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import type { AgentName } from '../ids/agent-names.js';
import { MamError } from '../errors.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { addOrchestrator, listOrchestrators, removeOrchestrator } from '../registry/orchestrators.js';
import { agentsBesideRegistry } from '../registry/agents-beside-registry.js';
import { registryAgents } from '../registry/registry-agents.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { invalidOrchestratorIdMessage, type OrchestratorRegisterResult, type OrchestratorRemoveOptions, type OrchestratorRemoveResult, orchestratorInUseMessage } from './orchestrators-result.js';
import { PurgeService } from './purge-service.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { checkOptions, checkPathArg, commonOptionShape, objectSchema, optionsSchema, workspaceExists } from '../validation/workspace-args.js';
import { lazySchema, type Zod } from '../lazy-zod.js';

const orchestratorsOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), registry: objectSchema(z) }));

const removeOptions = lazySchema((z: Zod) => {
  const flag = z.boolean({ error: 'must be a boolean' });
  return optionsSchema(z, { purgeConversation: flag, yes: flag, dryRun: flag });
});

/** Checks {@link Orchestrators}' options. */
export function checkOrchestratorsOptions<Extra extends string = never>(opts: OrchestratorsOptions<Extra> | undefined): OrchestratorsOptions<Extra> {
  return checkOptions(orchestratorsOptions, 'opts', opts);
}

/** Checks the options of {@link Orchestrators.remove} (booleans). */
export function checkOrchestratorRemoveOptions(opts: OrchestratorRemoveOptions | undefined): OrchestratorRemoveOptions {
  return checkOptions(removeOptions, 'opts', opts);
}

/**
 * Options of {@link Orchestrators}.
 * @public
 */
export interface OrchestratorsOptions<Extra extends string = never> {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment (default: decided per adapter from the ProcessPort's). */
  env?: Record<string, string | undefined>;
  /** The workspace's registry (default a new one on the same ports, knowing `agents`). */
  registry?: SessionRegistry;
  /**
   * Agents defined outside the package (`defineAgent`) an orchestrator conversation may belong to, after the built-ins:
   * an id plausible for one of them registers, and a removal's purge resolves and removes its conversation through a
   * `PurgeService` that knows them. Default: the `agents` of `registry` when given, else none. A `registry` given must
   * know each of them.
   */
  agents?: readonly AgentDefinition<Extra>[];
}

// The canonical spelling of a plausible id of any agent the catalog knows (built-ins first), or null.
function canonicalId(agents: AgentCatalog<string>, id: string): string | null {
  for (const agent of agents.names) {
    const c = agents.canonical(agent, id);
    if (c !== null) return c;
  }
  return null;
}

/**
 * A workspace's orchestrator conversations (`orchestrator_uuids`: bare ids, no row, never reset): register, list, and
 * remove — optionally purging the conversation, resolved to its agent from what is on disk, never while it is in use.
 * @example
 * ```ts
 * const orcs = new Orchestrators('/repo');
 * const r = await orcs.remove(id, { purgeConversation: true, yes: true });
 * if (r.kind === 'in-use') report(r.message); // artifacts and registration kept
 * ```
 * @public
 */
export class Orchestrators<Extra extends string = never> {
  readonly #workspace: string;
  readonly #ports: Ports;
  readonly #opts: OrchestratorsOptions<Extra>;
  readonly #registry: SessionRegistry;
  readonly #agents: readonly AgentDefinition<Extra>[];
  readonly #catalog: AgentCatalog<Extra>;
  readonly #exists: () => Promise<void>;

  /**
   * Binds to a workspace's registry; the home is looked up only when a removal needs it (a MamError
   * `ORCHESTRATORS_HOME_UNKNOWN` when there is none).
   */
  constructor(workspace: string, options: OrchestratorsOptions<Extra> = {}) {
    this.#workspace = checkPathArg('workspace', workspace);
    const opts = checkOrchestratorsOptions(options);
    this.#ports = resolvePorts(opts.ports);
    this.#exists = workspaceExists(this.#ports.fs, 'workspace', workspace);
    this.#opts = opts;
    this.#agents = agentsBesideRegistry<Extra>(options.agents, options.registry);
    this.#catalog = registryAgents<Extra>(this.#agents, 'opts.agents');
    this.#registry = opts.registry ?? new SessionRegistry(workspace, { ports: this.#ports, agents: this.#agents });
  }

  /** The registered ids, in registry order. */
  async list(): Promise<string[]> {
    await this.#exists();
    return listOrchestrators(await this.#registry.snapshot());
  }

  /** Registers an id (canonical spelling). */
  async register(id: string): Promise<OrchestratorRegisterResult> {
    if (typeof id !== 'string') throw new InvalidArgumentError('id', 'must be a string');
    await this.#exists();
    const c = canonicalId(this.#catalog, id);
    if (c === null) return { kind: 'invalid-id', id, message: invalidOrchestratorIdMessage(id, this.#catalog.names) };
    const added = await this.#registry.update((draft) => addOrchestrator(draft, c, { agents: this.#agents }));
    return { kind: added ? 'registered' : 'already-registered', id: c };
  }

  /**
   * Removes an id, purging its conversation first when asked (with `yes`); see {@link OrchestratorRemoveResult}.
   * @example
   * ```ts
   * const r = await orcs.remove(id, { purgeConversation: true, yes: true });
   * if (r.kind === 'removed' && r.purge?.kind === 'unresolved') warn('nothing to purge');
   * ```
   */
  async remove(id: string, options: OrchestratorRemoveOptions = {}): Promise<OrchestratorRemoveResult<Extra>> {
    if (typeof id !== 'string') throw new InvalidArgumentError('id', 'must be a string');
    const opts = checkOrchestratorRemoveOptions(options);
    await this.#exists();
    const c = canonicalId(this.#catalog, id);
    if (c === null) return { kind: 'invalid-id', id, message: invalidOrchestratorIdMessage(id, this.#catalog.names) };
    if (!(await this.list()).some((x) => (canonicalId(this.#catalog, x) ?? x) === c)) return { kind: 'not-registered', id: c, message: `orchestrator UUID ${c} is not registered; nothing was changed` };
    const purge = new PurgeService<Extra>({ ports: this.#ports, agents: this.#agents });
    const target = { home: this.#home(), workspace: this.#workspace, ...(this.#opts.env === undefined ? {} : { env: this.#opts.env }) };
    if (opts.dryRun === true) {
      const agent = opts.purgeConversation === true ? await purge.resolve(c, { workspace: target.workspace, home: target.home, ...(target.env === undefined ? {} : { env: target.env }) }) : null;
      const what = opts.purgeConversation === true ? ` and purge its conversation artifacts (agent: ${agent ?? 'none found on disk'})` : '';
      return { kind: 'dry-run', id: c, purge: opts.purgeConversation === true, agent, message: `dry run: would remove orchestrator UUID ${c}${what}; nothing was changed` };
    }
    if (opts.purgeConversation !== true) return this.#unregister(c, null);
    if (opts.yes !== true) {
      return { kind: 'needs-yes', id: c, message: `refused: removing orchestrator UUID ${c} with --purge-conversation deletes its conversation artifacts; nothing was changed. Re-run with --yes to confirm` };
    }
    // The registry is written after the purge: one that cannot be written is refused before anything is removed.
    await this.#registry.checkFiles();
    // Not scoped to the workspace: the registry names the id, and orphaned leftovers (which verify nowhere) go too.
    const result = await purge.purge('auto', c, { home: target.home, ...(target.env === undefined ? {} : { env: target.env }) });
    switch (result.kind) {
      case 'in-use': {
        // The purge service knows the built-ins and this one's agents: the holder's agent is one of them.
        const agent = result.agent as AgentName | Extra;
        return { kind: 'in-use', id: c, agent, holders: result.holders, hints: result.hints, message: orchestratorInUseMessage(c, agent, result.holders, result.hints) };
      }
      case 'purged':
      case 'unresolved':
        return this.#unregister(c, result);
      case 'partial':
        return { kind: 'purge-refused', id: c, purge: result, message: `refused: the purge of orchestrator UUID ${c} left ${result.residual.length} item(s) on disk (partial); it stays registered: purge it again once they can be removed` };
      case 'not-in-workspace':
      case 'refused':
      case 'changed':
      case 'dry-run':
        return { kind: 'purge-refused', id: c, purge: result, message: `refused: the purge of orchestrator UUID ${c} removed nothing (${result.kind}); it stays registered` };
      default: {
        const never: never = result;
        return never;
      }
    }
  }

  async #unregister(id: string, purge: Extract<OrchestratorRemoveResult<Extra>, { kind: 'removed' }>['purge']): Promise<OrchestratorRemoveResult<Extra>> {
    await this.#registry.update((draft) => removeOrchestrator(draft, id, { agents: this.#agents }));
    return { kind: 'removed', id, purge };
  }

  #home(): string {
    const home = this.#opts.home ?? this.#ports.proc.env()['HOME'];
    if (home === undefined || home === '') throw new MamError('ORCHESTRATORS_HOME_UNKNOWN', 'no home directory: pass `home`, or set HOME in the environment the ProcessPort reports', {});
    return home;
  }
}

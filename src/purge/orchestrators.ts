import { normalizeAgentId } from '../ids/agent-id.js';
import { AGENT_NAMES, type AgentName } from '../ids/agent-names.js';
import { MamError } from '../errors.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { addOrchestrator, listOrchestrators, removeOrchestrator } from '../registry/orchestrators.js';
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
export function checkOrchestratorsOptions(opts: OrchestratorsOptions | undefined): OrchestratorsOptions {
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
export interface OrchestratorsOptions {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment (default: decided per adapter from the ProcessPort's). */
  env?: Record<string, string | undefined>;
  /** The workspace's registry (default a new one on the same ports). */
  registry?: SessionRegistry;
}

// The canonical spelling of a plausible id of any agent, or null.
function canonicalId(id: string): string | null {
  for (const agent of AGENT_NAMES) {
    const c = normalizeAgentId(agent, id);
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
export class Orchestrators {
  readonly #workspace: string;
  readonly #ports: Ports;
  readonly #opts: OrchestratorsOptions;
  readonly #registry: SessionRegistry;
  readonly #exists: () => Promise<void>;

  /**
   * Binds to a workspace's registry; the home is looked up only when a removal needs it (a MamError
   * `ORCHESTRATORS_HOME_UNKNOWN` when there is none).
   */
  constructor(workspace: string, options: OrchestratorsOptions = {}) {
    this.#workspace = checkPathArg('workspace', workspace);
    const opts = checkOrchestratorsOptions(options);
    this.#ports = resolvePorts(opts.ports);
    this.#exists = workspaceExists(this.#ports.fs, 'workspace', workspace);
    this.#opts = opts;
    this.#registry = opts.registry ?? new SessionRegistry(workspace, { ports: this.#ports });
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
    const c = canonicalId(id);
    if (c === null) return { kind: 'invalid-id', id, message: invalidOrchestratorIdMessage(id) };
    const added = await this.#registry.update((draft) => addOrchestrator(draft, c));
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
  async remove(id: string, options: OrchestratorRemoveOptions = {}): Promise<OrchestratorRemoveResult> {
    if (typeof id !== 'string') throw new InvalidArgumentError('id', 'must be a string');
    const opts = checkOrchestratorRemoveOptions(options);
    await this.#exists();
    const c = canonicalId(id);
    if (c === null) return { kind: 'invalid-id', id, message: invalidOrchestratorIdMessage(id) };
    if (!(await this.list()).some((x) => (canonicalId(x) ?? x) === c)) return { kind: 'not-registered', id: c, message: `orchestrator UUID ${c} is not registered; nothing was changed` };
    const purge = new PurgeService({ ports: this.#ports });
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
        // This service knows the built-in agents only: the holder's agent is one of them.
        const agent = result.agent as AgentName;
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

  async #unregister(id: string, purge: Extract<OrchestratorRemoveResult, { kind: 'removed' }>['purge']): Promise<OrchestratorRemoveResult> {
    await this.#registry.update((draft) => removeOrchestrator(draft, id));
    return { kind: 'removed', id, purge };
  }

  #home(): string {
    const home = this.#opts.home ?? this.#ports.proc.env()['HOME'];
    if (home === undefined || home === '') throw new MamError('ORCHESTRATORS_HOME_UNKNOWN', 'no home directory: pass `home`, or set HOME in the environment the ProcessPort reports', {});
    return home;
  }
}

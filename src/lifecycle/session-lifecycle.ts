import type { IdOrderGate } from '../gate/id-order-gate.js';
import { MamError } from '../errors.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { PurgeService } from '../purge/purge-service.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import { agentsBesideRegistry } from '../registry/agents-beside-registry.js';
import type { CreateOptions, CreateResult } from './create-result.js';
import type { LifecycleContext, LifecycleTimeouts } from './lifecycle-context.js';
import type { SessionSpec } from './session-spec.js';
import type { StopOptions, StopResult } from './stop-result.js';
import { checkCreateOptions, checkLifecycleOptions, checkSessionSpec, checkStopOptions, type SessionLifecycleOptions } from './lifecycle-options.js';
import { checkNameArg, checkPathArg, workspaceExists } from '../validation/workspace-args.js';

export type { SessionLifecycleOptions } from './lifecycle-options.js';

// Only what the constructor needs is imported here: create and stop load their steps (and the id-order gate) on their
// first call, so importing @mam/core does not load them.

function captureWindowMs(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env['MAM_ONBOARD_WAIT_S'];
  const s = raw !== undefined && /^[0-9]+(\.[0-9]+)?$/.test(raw.trim()) ? Number(raw.trim()) : 30;
  return Math.min(s, 3600) * 1000;
}

/**
 * Creates and stops agent sessions through herdr, keeping their registry rows in step: the lifecycle the reset run, the
 * example CLI and users' tools share.
 * @example
 * ```ts
 * const life = new SessionLifecycle('/repo');
 * const made = await life.create({ name: 'reviewer-agy-01', agent: 'agy', role: 'reviewer' });
 * if (made.kind === 'created') await life.stop('reviewer-agy-01', { purge: true, yes: true });
 * ```
 *
 * An agent defined outside the package is passed in `agents` (see {@link SessionLifecycleOptions.agents}).
 * @public
 */
export class SessionLifecycle<Extra extends string = never> {
  readonly #c: Omit<LifecycleContext, 'gate'>;
  #gate: IdOrderGate | undefined;
  readonly #exists: () => Promise<void>;

  /**
   * Binds the lifecycle to a workspace (an absolute path, checked to be an existing directory at the first call unless
   * `createWorkspace`); throws an {@link InvalidArgumentError} naming the parameter for a bad workspace or option, and a
   * MamError `LIFECYCLE_HOME_UNKNOWN` when no home directory is given or known.
   */
  constructor(workspace: string, options: SessionLifecycleOptions<Extra> = {}) {
    checkPathArg('workspace', workspace);
    const opts = checkLifecycleOptions(options);
    const ports = resolvePorts(opts.ports);
    const procEnv = ports.proc.env();
    const home = opts.home ?? procEnv['HOME'];
    if (home === undefined || home === '') throw new MamError('LIFECYCLE_HOME_UNKNOWN', 'no home directory: pass `home`, or set HOME in the environment the ProcessPort reports', {});
    const agents = agentsBesideRegistry<Extra>(options.agents, options.registry);
    const registry = opts.registry ?? new SessionRegistry(workspace, { ports, createWorkspace: opts.createWorkspace === true, agents });
    this.#exists = workspaceExists(ports.fs, 'workspace', workspace, { create: opts.createWorkspace === true, optIn: 'createWorkspace' });
    const given = opts.timeouts ?? {};
    const timeouts: LifecycleTimeouts = {
      readyMs: given.readyMs ?? 30_000,
      captureMs: given.captureMs ?? captureWindowMs(procEnv),
      exitMs: given.exitMs ?? 15_000,
      pollMs: given.pollMs ?? 250,
      ...(given.startMs === undefined ? {} : { startMs: given.startMs }),
    };
    this.#c = {
      workspace,
      ports,
      registry,
      purge: new PurgeService<string>({ ports, agents }),
      ...(agents.length === 0 ? {} : { agents }),
      home,
      env: opts.env,
      timeouts,
    };
    this.#gate = opts.gate;
  }

  // The context create and stop run in; the default id-order gate is made on the first call.
  async #context(): Promise<LifecycleContext> {
    if (this.#gate === undefined) {
      const { IdOrderGate } = await import('../gate/id-order-gate.js');
      this.#gate ??= new IdOrderGate(this.#c.workspace, { ports: this.#c.ports, registry: this.#c.registry });
    }
    return { ...this.#c, gate: this.#gate };
  }

  /**
   * Creates a session and registers its row; see {@link CreateResult} for every outcome.
   * @example
   * ```ts
   * const r = await life.create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrWorkspace: 'lbl' });
   * if (r.kind === 'preflight-failed') process.exitCode = r.rc;
   * ```
   */
  async create(spec: SessionSpec<Extra>, opts: CreateOptions = {}): Promise<CreateResult<Extra>> {
    checkSessionSpec(spec);
    const o = checkCreateOptions(opts);
    await this.#exists();
    const { createSession } = await import('./create-session.js');
    return createSession(await this.#context(), spec, o);
  }

  /**
   * Stops the session of a row, optionally purging its conversation; see {@link StopResult} for every outcome.
   * @example
   * ```ts
   * const r = await life.stop('reviewer-claude-01', { purge: true, yes: true });
   * if (r.kind === 'records-preserved') report(r.message); // the row stays stopped with its id
   * ```
   */
  async stop(name: string, opts: StopOptions = {}): Promise<StopResult> {
    checkNameArg('name', name);
    const o = checkStopOptions(opts);
    await this.#exists();
    const { stopSession } = await import('./stop-session.js');
    return stopSession(await this.#context(), name, o);
  }
}

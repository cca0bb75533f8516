import { IdOrderGate } from '../gate/id-order-gate.js';
import { MamError } from '../errors.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { PurgeService } from '../purge/purge-service.js';
import { SessionRegistry } from '../registry/session-registry.js';
import type { CreateOptions, CreateResult } from './create-result.js';
import { createSession } from './create-session.js';
import type { LifecycleContext, LifecycleTimeouts } from './lifecycle-context.js';
import type { SessionSpec } from './session-spec.js';
import type { StopOptions, StopResult } from './stop-result.js';
import { stopSession } from './stop-session.js';

/**
 * Options of {@link SessionLifecycle}.
 * @public
 */
export interface SessionLifecycleOptions {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The home whose agent dirs hold the conversations (default `HOME` of the ProcessPort's environment). */
  home?: string;
  /** The agents' environment (CLAUDE_CONFIG_DIR, CODEX_HOME …); default: decided per adapter from the ProcessPort's. */
  env?: Record<string, string | undefined>;
  /** The workspace's registry (default a new one on the same ports). */
  registry?: SessionRegistry;
  /** The id-order gate (default a new one on the same ports and registry). */
  gate?: IdOrderGate;
  /** Waits to override; defaults: ready 30 s, capture `MAM_ONBOARD_WAIT_S` (else 30 s), exit 15 s, poll 250 ms. */
  timeouts?: Partial<LifecycleTimeouts>;
}

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
 * @public
 */
export class SessionLifecycle {
  readonly #c: LifecycleContext;

  /**
   * Binds the lifecycle to a workspace; throws a MamError `LIFECYCLE_HOME_UNKNOWN` when no home directory is given or
   * known.
   */
  constructor(workspace: string, opts: SessionLifecycleOptions = {}) {
    const ports = resolvePorts(opts.ports);
    const procEnv = ports.proc.env();
    const home = opts.home ?? procEnv['HOME'];
    if (home === undefined || home === '') throw new MamError('LIFECYCLE_HOME_UNKNOWN', 'no home directory: pass `home`, or set HOME in the environment the ProcessPort reports', {});
    const registry = opts.registry ?? new SessionRegistry(workspace, { ports });
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
      purge: new PurgeService({ ports }),
      gate: opts.gate ?? new IdOrderGate(workspace, { ports, registry }),
      home,
      env: opts.env,
      timeouts,
    };
  }

  /**
   * Creates a session and registers its row; see {@link CreateResult} for every outcome.
   * @example
   * ```ts
   * const r = await life.create({ name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', herdrWorkspace: 'lbl' });
   * if (r.kind === 'preflight-failed') process.exitCode = r.rc;
   * ```
   */
  create(spec: SessionSpec, opts: CreateOptions = {}): Promise<CreateResult> {
    return createSession(this.#c, spec, opts);
  }

  /**
   * Stops the session of a row, optionally purging its conversation; see {@link StopResult} for every outcome.
   * @example
   * ```ts
   * const r = await life.stop('reviewer-claude-01', { purge: true, yes: true });
   * if (r.kind === 'records-preserved') report(r.message); // the row stays stopped with its id
   * ```
   */
  stop(name: string, opts: StopOptions = {}): Promise<StopResult> {
    return stopSession(this.#c, name, opts);
  }
}

import { randomUUID } from 'node:crypto';
import { acquireLock } from '../atomic/lock.js';
import { MamError } from '../errors.js';
import { LockTimeoutError } from '../atomic/lock-timeout-error.js';
import { sanitizeHerdrAgentName } from '../herdr/sanitize.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import type { ProcessInfo } from '../ports/process.js';
import { realpathLenient } from '../registry/realpath-lenient.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { type IdOrderMarker, IdOrderMarkerSchema } from './id-order-marker.js';
import { idOrderPaths } from './id-order-paths.js';
import { type IdOrderBlocker, type IdOrderRefusal, idOrderRefusalMessage } from './id-order-refusal.js';
import { type IdOrderPruned, type IdOrderRound, idOrderRound } from './id-order-round.js';
import { holdIdOrderTicket, type IdOrderTicket } from './id-order-ticket.js';
import type { IdOrderUnremoved } from './id-order-unremoved.js';
import { type IdOrderWait, idOrderWaitFromEnv } from './id-order-wait.js';

/**
 * Options of {@link IdOrderGate}.
 * @public
 */
export interface IdOrderGateOptions {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The wait bound in seconds; default `MAM_ID_ORDER_WAIT_S` from the ProcessPort's environment (else 60). */
  waitSeconds?: number;
  /** Pause between looks while blocked (default 250 ms). */
  pollMs?: number;
  /** The workspace's registry (default a new one on the same ports). */
  registry?: SessionRegistry;
}

/**
 * One create (or resume) that wants to start a post-discovered agent in a cwd.
 * @public
 */
export interface IdOrderRequest {
  /** The row name. */
  session: string;
  /** The session's cwd. */
  cwd: string;
  /** The herdr server (session) it will live on. */
  herdrServer: string;
  /** The name herdr will know the agent by (default the sanitised row name). */
  herdrName?: string;
  /** Aborts the wait between looks (the sleep rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * The gate's answer: passed (hold the ticket until the session's id is registered, then release it) or refused. Either
 * way `unremoved` lists the markers the last look judged removable but could not remove (they did not block).
 * @public
 */
export type IdOrderGateResult = { kind: 'passed'; ticket: IdOrderTicket; pruned: IdOrderPruned[]; unremoved: IdOrderUnremoved[]; wait: IdOrderWait } | IdOrderRefusal;

/** Extra time to get the lock past the deadline: another waiter holds it only for a look bounded by its own deadline. */
const LOCK_GRACE_MS = 2_000;

/**
 * The id-order gate: post-discovered sessions created in one cwd pass one at a time, so each can tell its conversation
 * from the other's. A marker per attempt (owner pid, herdr server, session name, attempt) under `.mam/id-order/` blocks
 * the others until released; a dead owner's marker goes only when its row is registered for the attempt or herdr's
 * parsed `agent list` no longer names the session.
 * @example
 * ```ts
 * const gate = new IdOrderGate('/repo');
 * const r = await gate.enter({ session: 'reviewer-agy-01', cwd: '/repo', herdrServer: 'default' });
 * if (r.kind === 'refused') return r.message;
 * try { await startAndPin(); } finally { await r.ticket.release(); }
 * ```
 * @public
 */
export class IdOrderGate {
  readonly #workspace: string;
  readonly #ports: Ports;
  readonly #opts: IdOrderGateOptions;
  readonly #registry: SessionRegistry;

  /** Binds the gate to a workspace; its markers live under `<workspace>/.mam/id-order/`. */
  constructor(workspace: string, opts: IdOrderGateOptions = {}) {
    this.#workspace = workspace;
    this.#ports = resolvePorts(opts.ports);
    this.#opts = opts;
    this.#registry = opts.registry ?? new SessionRegistry(workspace, { ports: this.#ports });
  }

  /** The wait bound this gate uses now. */
  wait(): IdOrderWait {
    const s = this.#opts.waitSeconds;
    return s !== undefined && Number.isFinite(s) && s >= 0 ? { seconds: s, source: 'option' } : idOrderWaitFromEnv(this.#ports.proc.env());
  }

  /**
   * Waits (bounded) until no other attempt blocks the cwd, then writes this attempt's marker; a request herdr would reject
   * (a server name outside `[A-Za-z0-9._-]`, an invalid agent name) throws a MamError `ID_ORDER_INVALID_REQUEST`.
   * @example
   * ```ts
   * const r = await gate.enter({ session: 'reviewer-codex-01', cwd: '/repo', herdrServer: 'default' });
   * if (r.kind === 'refused') for (const b of r.blockers) report(b.state, b.closeCommand);
   * ```
   */
  async enter(req: IdOrderRequest): Promise<IdOrderGateResult> {
    const { fs, clock, proc } = this.#ports;
    const wait = this.wait();
    const deadline = clock.monotonic() + wait.seconds * 1000;
    const timeLeftMs = (): number => deadline - clock.monotonic();
    const cwd = await realpathLenient(fs, req.cwd);
    const paths = idOrderPaths(this.#workspace, cwd);
    const selfPid = proc.selfPid();
    const self: ProcessInfo | { pid: number; startedAtMs: null } = (await proc.lookup(selfPid).catch(() => null)) ?? { pid: selfPid, startedAtMs: null };
    const mine: IdOrderMarker = {
      version: 1,
      owner_pid: selfPid,
      owner_started_at_ms: self.startedAtMs,
      owner_start_ticks: 'startTicks' in self && self.startTicks !== undefined ? self.startTicks : null,
      token: randomUUID(),
      session: req.session,
      herdr_name: req.herdrName ?? sanitizeHerdrAgentName(req.session),
      herdr_server: req.herdrServer,
      attempt: Math.floor(clock.now() / 1000),
      cwd,
      pane_id: null,
      written_at: new Date(clock.now()).toISOString(),
    };
    const checked = IdOrderMarkerSchema.safeParse(mine);
    if (!checked.success) {
      throw new MamError('ID_ORDER_INVALID_REQUEST', `id-order gate: cannot mark ${JSON.stringify(req.session)}: ${checked.error.issues[0]?.path.join('.') ?? ''} ${checked.error.issues[0]?.message ?? 'invalid'}`, { session: req.session, herdrServer: req.herdrServer });
    }
    await fs.mkdir(paths.dir, { recursive: true });
    const lastProbe = new Map<string, 'present' | 'server_not_running' | 'unknown'>();
    const seenPresent = new Set<string>();
    const pruned: IdOrderPruned[] = [];
    // As of the last look that judged the markers (a look that could not get the gate lock judged none).
    let unremoved: IdOrderUnremoved[] = [];
    for (;;) {
      const round = await this.#round(paths.lock, { ports: this.#ports, registry: this.#registry, dir: paths.dir, self, mine, lastProbe, seenPresent, timeLeftMs }, timeLeftMs, req.signal);
      pruned.push(...round.pruned);
      if (round.kind === 'written' || !round.blockers.some((b) => b.state === 'gate-busy')) unremoved = round.unremoved;
      if (round.kind === 'written') return { kind: 'passed', ticket: holdIdOrderTicket(fs, round.file, mine), pruned, unremoved, wait };
      const left = timeLeftMs();
      if (left <= 0) {
        const message = idOrderRefusalMessage(req.session, cwd, wait, round.blockers, unremoved);
        return { kind: 'refused', session: req.session, cwd, wait, blockers: round.blockers, unremoved, message };
      }
      await clock.sleep(Math.min(this.#opts.pollMs ?? 250, left), req.signal);
    }
  }

  // One look under the gate lock; a lock still busy past the deadline (plus a grace) is a blocker of its own.
  async #round(lockPath: string, input: Parameters<typeof idOrderRound>[0], timeLeftMs: () => number, signal: AbortSignal | undefined): Promise<IdOrderRound> {
    const timeoutMs = Math.max(0, timeLeftMs()) + LOCK_GRACE_MS;
    let lock;
    try {
      lock = await acquireLock(lockPath, { clock: this.#ports.clock, timeoutMs, pollMs: 5, ...(signal === undefined ? {} : { signal }) });
    } catch (err) {
      if (!(err instanceof LockTimeoutError)) throw err;
      const busy: IdOrderBlocker = { file: lockPath, marker: null, state: 'gate-busy', lastDefinite: null, closeCommand: null };
      return { kind: 'blocked', blockers: [busy], pruned: [], unremoved: [] };
    }
    try {
      return await idOrderRound(input);
    } finally {
      lock.release();
    }
  }
}

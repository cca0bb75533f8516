import { HerdrCommandPort, type HerdrRunContext } from '../../herdr/command-port.js';
import type { HerdrOp } from '../../herdr/commands.js';
import type { HerdrRawOutput } from '../../herdr/output.js';
import type { Clock } from '../../ports/clock.js';
import type { HerdrAgentSession, HerdrAgentStatus } from '../../ports/herdr.js';
import { editFakeHerdrState, fakeHerdrCore, createFakeHerdrState, type FakeHerdrAgentSeed, type FakeHerdrEditor, type FakeHerdrSeeded, type FakeHerdrSessionOption } from './fake-herdr-editor.js';
import type { FakeHerdrEnv, FakeHerdrFault, FakeHerdrState, FakeHerdrStep } from './fake-herdr-types.js';
import { VirtualClock } from './virtual-clock.js';

/**
 * One call a {@link FakeHerdr} received: the port operation and the exact argv the real CLI would have been given.
 * @public
 */
export interface HerdrCall {
  /** The port operation called, e.g. `agentWait`. */
  op: HerdrOp;
  /** The argv the real CLI would have been given (binary excluded). */
  argv: readonly string[];
  /** The `--session` the call addressed, if any. */
  session: string | undefined;
}

/**
 * Options of {@link FakeHerdr}.
 * @public
 */
export interface FakeHerdrOptions {
  /** Time for waits and deadlines; default a {@link VirtualClock} (time jumps ahead whenever every waiter sleeps). */
  clock?: Clock;
  /** Initial state; default one running `default` server with nothing on it. */
  state?: FakeHerdrState;
  /** The herdr variables the calls see (`HERDR_SESSION` picks the server when no `--session` is given). */
  env?: FakeHerdrEnv;
}

/**
 * An in-process {@link HerdrPort} with herdr's semantics, the same implementation the fake executable runs, recording every call.
 *
 * @example
 * ```ts
 * const herdr = new FakeHerdr();
 * herdr.addAgent({ name: 'reviewer', kind: 'claude', status: 'working' });
 * herdr.queueStatuses('reviewer', ['working', 'idle']);
 * const r = await herdr.agentWait('reviewer', { until: ['idle'], timeoutMs: 10_000 }); // ok, agent_status 'idle'
 * ```
 * @public
 */
export class FakeHerdr extends HerdrCommandPort {
  /** Every call, in order. */
  readonly calls: HerdrCall[] = [];
  readonly #clock: Clock;
  readonly #env: FakeHerdrEnv;
  #state: FakeHerdrState;
  #waiters = new Set<() => void>();

  /** A fake with the given (or a fresh) state, clock and environment; the state is used as given, not copied. */
  constructor(opts: FakeHerdrOptions = {}) {
    let self: FakeHerdr | undefined;
    super((argv, ctx) => (self as FakeHerdr).#run(argv, ctx));
    self = this;
    this.#clock = opts.clock ?? new VirtualClock();
    this.#env = opts.env ?? {};
    this.#state = opts.state ?? createFakeHerdrState();
  }

  /** The current state (a new object after every call: read it again rather than keep it; change it through {@link FakeHerdr.edit}). */
  get state(): FakeHerdrState {
    return this.#state;
  }

  /** Changes the state with an editor; pending waits look again afterwards. */
  edit<T>(fn: (editor: FakeHerdrEditor) => T): T {
    const result = fn(editFakeHerdrState(this.#state));
    this.#changed();
    return result;
  }

  /** Starts (or restarts) a server. */
  startSession(name?: string): void {
    this.edit((e) => e.startSession(name));
  }
  /** Stops a server: later calls answer `server_not_running`. */
  stopSession(name?: string): void {
    this.edit((e) => e.stopSession(name));
  }
  /** Adds a workspace with one idle shell pane. */
  addWorkspace(opts?: FakeHerdrSessionOption & { cwd?: string; label?: string }): FakeHerdrSeeded {
    return this.edit((e) => e.addWorkspace(opts));
  }
  /** Adds an agent (in a new workspace unless `paneId` is given). */
  addAgent(seed: FakeHerdrAgentSeed): FakeHerdrSeeded {
    return this.edit((e) => e.addAgent(seed));
  }
  /** Sets an agent's status now. */
  setStatus(target: string, status: HerdrAgentStatus, opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.setStatus(target, status, opts));
  }
  /** Queues steps played by `agent get` and by each evaluation of a wait. */
  queueStatuses(target: string, steps: readonly FakeHerdrStep[], opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.queueStatuses(target, steps, opts));
  }
  /** Sets the steps each later prompt queues. */
  onPrompt(target: string, steps: readonly FakeHerdrStep[], opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.onPrompt(target, steps, opts));
  }
  /** Ends an agent's process now. */
  exitAgent(target: string, opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.exitAgent(target, opts));
  }
  /** Sets what `agent read` / `pane read` print. */
  setBuffer(target: string, text: string, opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.setBuffer(target, text, opts));
  }
  /** Sets (or clears) the agent's reported conversation reference. */
  setAgentSession(target: string, agentSession: HerdrAgentSession | null, opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.setAgentSession(target, agentSession, opts));
  }
  /** Makes the next call(s) of `op` (e.g. `agent list`) fail with `fault`. */
  failNext(op: string, fault: FakeHerdrFault, opts?: FakeHerdrSessionOption & { times?: number }): void {
    this.edit((e) => e.failNext(op, fault, opts));
  }
  /** Applies a step at a time of this fake's clock or after a number of calls. */
  schedule(target: string, to: FakeHerdrStep, when: { atMs?: number; afterCalls?: number }, opts?: FakeHerdrSessionOption): void {
    this.edit((e) => e.schedule(target, to, when, opts));
  }

  #changed(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  #commit(next: FakeHerdrState): void {
    const changed = JSON.stringify(next) !== JSON.stringify(this.#state);
    this.#state = next;
    if (changed) this.#changed();
  }

  // Resolves on the next state change, after `ms` of the clock, or when `stop` aborts.
  #nextChange(ms: number, stop: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const sleep = new AbortController();
      const wake = (): void => {
        this.#waiters.delete(wake);
        stop.removeEventListener('abort', wake);
        sleep.abort();
        resolve();
      };
      this.#waiters.add(wake);
      stop.addEventListener('abort', wake, { once: true });
      if (ms <= 0) void Promise.resolve().then(wake);
      else if (Number.isFinite(ms)) this.#clock.sleep(ms, sleep.signal).then(wake, () => undefined);
    });
  }

  async #answer(argv: string[], stop: AbortSignal): Promise<HerdrRawOutput | undefined> {
    const core = fakeHerdrCore();
    core.answer.beginCall(this.#state);
    let r = core.answer.answer(this.#state, argv, this.#clock.now(), { env: this.#env });
    for (;;) {
      this.#commit(r.state);
      const o = r.outcome;
      if (o.type === 'exit') return { kind: 'exited', stdout: o.stdout, stderr: o.stderr, exitCode: o.exitCode, signal: null };
      if (o.type === 'hang') {
        // Like a herdr that never answers: only the caller's deadline ends it.
        await new Promise<void>((resolve) => stop.addEventListener('abort', () => resolve(), { once: true }));
        return undefined;
      }
      await this.#nextChange(o.wakeAt - this.#clock.now(), stop);
      if (stop.aborted) return undefined;
      r = core.answer.answer(this.#state, argv, this.#clock.now(), { resume: o.resume });
    }
  }

  async #run(argv: readonly string[], ctx: HerdrRunContext): Promise<HerdrRawOutput> {
    // The port puts `--session NAME` first; a later `--session` would be a prompt's text.
    this.calls.push({ op: ctx.op, argv: [...argv], session: argv[0] === '--session' ? argv[1] : undefined });
    const stop = new AbortController();
    const answered = this.#answer([...argv], stop.signal);
    if (ctx.deadlineMs === undefined) return (await answered) as HerdrRawOutput;
    const deadline = ctx.deadlineMs;
    const timer = new AbortController();
    const timedOut = this.#clock.sleep(deadline, timer.signal).then(
      (): HerdrRawOutput => ({ kind: 'timed_out', afterMs: deadline, stdout: '', stderr: '' }),
      () => undefined,
    );
    const first = await Promise.race([answered, timedOut]);
    stop.abort();
    timer.abort();
    return first ?? ((await answered) as HerdrRawOutput);
  }
}

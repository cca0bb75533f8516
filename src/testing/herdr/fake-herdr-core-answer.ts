import type { fakeHerdrBase } from './fake-herdr-core-base.js';
import type { fakeHerdrModel } from './fake-herdr-core-model.js';
import type { fakeHerdrArgs } from './fake-herdr-core-args.js';
import type { fakeHerdrPaneCommands } from './fake-herdr-core-panes.js';
import type { fakeHerdrAgentCommands } from './fake-herdr-core-agents.js';
import type { fakeHerdrProcs } from './fake-herdr-core-procs.js';
import type { fakeHerdrWaits } from './fake-herdr-core-waits.js';
import type { FakeHerdrCommand, FakeHerdrProcIo } from './fake-herdr-command.js';
import type { FakeHerdrEnv, FakeHerdrOutcome, FakeHerdrPending, FakeHerdrState } from './fake-herdr-types.js';

/**
 * Options of one evaluation of a fake herdr call.
 * @public
 */
export interface FakeHerdrAnswerOptions {
  env?: FakeHerdrEnv;
  /** Continue a wait that answered `pending` before. */
  resume?: FakeHerdrPending;
  /** Process effects (the fake executable): agents are real processes, looked at on every call. */
  procs?: FakeHerdrProcIo;
}

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  base: ReturnType<typeof fakeHerdrBase>;
  model: ReturnType<typeof fakeHerdrModel>;
  args: ReturnType<typeof fakeHerdrArgs>;
  panes: ReturnType<typeof fakeHerdrPaneCommands>;
  agents: ReturnType<typeof fakeHerdrAgentCommands>;
  procs: ReturnType<typeof fakeHerdrProcs>;
  waits: ReturnType<typeof fakeHerdrWaits>;
};

/**
 * Core part: the entry point — argv in, herdr's stdout/stderr/exit code out, over a state. Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrAnswer(lib: Reach) {
  const HELP = 'usage: herdr <command> [args]\n\ncommands: workspace, pane, agent, status, session';

  /** Counts one call (for `afterCalls` transitions and hooks); returns its 1-based number. */
  function beginCall(state: FakeHerdrState): number {
    state.calls += 1;
    return state.calls;
  }

  function serverStatus(state: FakeHerdrState, session: string, json: boolean): FakeHerdrOutcome {
    const running = state.sessions[session]?.running === true;
    if (!json) return lib.base.text(`server: ${running ? 'running' : 'not running'}\n`);
    return lib.base.text(lib.base.line({
      status: running ? 'running' : 'not_running', running, version: running ? '0.8.0' : null, protocol: running ? 20 : null,
      capabilities: running ? [] : null, compatible: running ? true : null, socket: lib.base.socketPath(session), session, restart_needed: running ? false : null,
    }));
  }

  function commandsOf(group: string): Record<string, FakeHerdrCommand> | undefined {
    if (group === 'workspace') return lib.panes.workspace;
    if (group === 'pane') return lib.panes.pane;
    if (group === 'agent') return lib.agents.agent;
    return undefined;
  }

  // A queued fault answers instead of the server (usage errors still come first: they are client-side).
  function takeFault(state: FakeHerdrState, op: string, session: string, id: string): FakeHerdrOutcome | undefined {
    const rule = state.faults.find((f) => f.op === op && (f.session === undefined || f.session === session));
    if (rule === undefined) return undefined;
    rule.times -= 1;
    if (rule.times <= 0) state.faults = state.faults.filter((f) => f !== rule);
    if (rule.fault === 'hang') return { type: 'hang' };
    if (rule.fault === 'transport') {
      return { type: 'exit', stdout: '\u0000fake herdr: garbled\n', stderr: "thread 'main' panicked at src/cli.rs: injected transport fault\n", exitCode: 101 };
    }
    return lib.base.fail(id, rule.fault.code, rule.fault.message);
  }

  function notRunning(id: string, session: string): FakeHerdrOutcome {
    const attach = session === 'default' ? 'herdr' : `herdr session attach ${session}`;
    return lib.base.failIdFirst(id, 'server_not_running', `no herdr server is running at ${lib.base.socketPath(session)}; run \`${attach}\` to start or attach it`);
  }

  function dispatch(state: FakeHerdrState, argv: string[], now: number, env: FakeHerdrEnv, procs: FakeHerdrProcIo | undefined): FakeHerdrOutcome {
    const split = lib.args.splitSession(argv);
    if ('error' in split) return lib.base.usage(`error: ${split.error}`);
    const session = split.session ?? env.HERDR_SESSION ?? 'default';
    if (!lib.base.isValidSession(session)) return lib.base.usage("error: session name may only contain ASCII letters, numbers, '.', '_' and '-'");
    const [group = '', sub = '', ...args] = split.rest;
    if (['help', '-h', '--help'].includes(group) || ['help', '-h', '--help'].includes(sub)) return lib.base.text(`${HELP}\n`);
    if (group === 'status' && sub === 'server') return serverStatus(state, session, args.includes('--json'));
    const command = commandsOf(group)?.[sub];
    if (command === undefined) return lib.base.usage(HELP);
    const p = lib.args.parse(args, command.spec);
    if ('error' in p) return lib.base.usage(p.error);
    if (p.pos.length < command.minPos || p.pos.length > command.maxPos) return lib.base.usage(command.usage);
    const refused = command.check?.(p);
    if (refused !== undefined) return refused;
    const fault = takeFault(state, `${group} ${sub}`, session, command.id);
    if (fault !== undefined) return fault;
    const sess = state.sessions[session];
    if (sess === undefined || !sess.running) return notRunning(command.id, session);
    // Every call sees the agents' processes as they are now (a dead pid drops its agent).
    if (procs !== undefined) lib.procs.refresh(state, now, procs);
    lib.model.applyTransitions(state, now);
    return command.run({ state, sess, session, now, env, ...(procs === undefined ? {} : { procs }) }, p);
  }

  /**
   * Evaluates one call (or one more round of a pending wait) over a copy of `state`.
   * The caller stores the returned state, prints the outcome, or evaluates again with `resume` once the state changed or `wakeAt` passed.
   */
  function answer(state0: FakeHerdrState, argv: string[], now: number, opts: FakeHerdrAnswerOptions): { state: FakeHerdrState; outcome: FakeHerdrOutcome } {
    const state = lib.base.clone(state0);
    if (opts.resume !== undefined) {
      if (opts.procs !== undefined) lib.procs.refresh(state, now, opts.procs);
      lib.model.applyTransitions(state, now);
      return { state, outcome: lib.waits.evaluate(state, now, opts.resume, opts.procs) };
    }
    return { state, outcome: dispatch(state, argv, now, opts.env ?? {}, opts.procs) };
  }

  /** The verb of an argv (`agent wait`), `--session` stripped: what fault rules and hooks match on. */
  function verbOf(argv: string[]): string {
    const split = lib.args.splitSession(argv);
    return 'error' in split ? '' : split.rest.slice(0, 2).join(' ');
  }

  return { beginCall, answer, verbOf };
}

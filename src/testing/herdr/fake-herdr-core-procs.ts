import type { fakeHerdrBase } from './fake-herdr-core-base.js';
import type { fakeHerdrModel } from './fake-herdr-core-model.js';
import type { fakeHerdrViews } from './fake-herdr-core-views.js';
import type { FakeHerdrPaneLoc } from './fake-herdr-core-model.js';
import type { FakeHerdrCommandCtx, FakeHerdrProcIo, FakeHerdrSpawnRequest, FakeHerdrSpawnResult } from './fake-herdr-command.js';
import type { FakeHerdrAgentProcess, FakeHerdrOutcome, FakeHerdrPending, FakeHerdrState } from './fake-herdr-types.js';

export type { FakeHerdrProcIo, FakeHerdrProcProbe, FakeHerdrSpawnRequest, FakeHerdrSpawnResult } from './fake-herdr-command.js';

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  base: ReturnType<typeof fakeHerdrBase>;
  model: ReturnType<typeof fakeHerdrModel>;
  views: ReturnType<typeof fakeHerdrViews>;
};

/**
 * Core part: agents backed by real processes (spawn, readiness, reported ids, exit) and what Enter submits. Self-contained,
 * see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrProcs(lib: Reach) {
  const EXIT_COMMAND = '/exit';
  const SESSION_LINE = /^session (\S{1,512})$/;
  const FAILED = 'agent process exited before becoming interactive';

  /** The protocol lines an agent printed: `ready`, and `session <id>` (the last one wins: `/clear` switches ids). */
  function parseOutput(text: string): { ready: boolean; session: string | null } {
    let ready = false;
    let session: string | null = null;
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (line === 'ready') ready = true;
      const m = SESSION_LINE.exec(line);
      if (m !== null && !/[\u0000-\u001f\u007f]/.test(m[1] as string)) session = m[1] as string;
    }
    return { ready, session };
  }

  /** Every spawned agent as its process is now: a dead one is gone (name released), a ready one idle, a reported id its `agent_session`. */
  function refresh(state: FakeHerdrState, now: number, io: FakeHerdrProcIo): void {
    for (const sess of Object.values(state.sessions)) {
      for (const loc of lib.model.panesOf(sess)) {
        const agent = loc.pane.agent;
        if (agent === null || agent.process === undefined) continue;
        const seen = io.probe(agent.process);
        if (!seen.alive) {
          lib.model.applyStep(sess, { ...loc, agent }, 'exit');
          continue;
        }
        const out = parseOutput(seen.output);
        if (agent.launch_pending === true && (out.ready || now - agent.process.spawnedAt >= io.readyAfterMs)) {
          delete agent.launch_pending;
          agent.interactive_ready = true;
          lib.model.setStatus(sess, { ...loc, agent }, 'idle');
        }
        if (out.session !== null && agent.agent_session?.value !== out.session) {
          agent.agent_session = { source: `herdr:${agent.kind}`, agent: agent.kind, kind: 'id', value: out.session };
          loc.pane.revision += 1;
        }
      }
    }
  }

  /**
   * Where a pending `agent start` stands (the caller refreshed the processes): started once ready, failed once its process
   * is gone, timed out at the deadline.
   */
  function evaluateStart(state: FakeHerdrState, now: number, w: FakeHerdrPending, io: FakeHerdrProcIo | undefined): FakeHerdrOutcome {
    const sess = state.sessions[w.session];
    const loc = sess === undefined || !sess.running ? undefined : lib.model.findAgent(sess, w.target);
    if (sess === undefined || loc === undefined || loc.pane.terminal_id !== w.terminal_id || loc.agent.name !== w.target) {
      return lib.base.fail(w.id, 'agent_start_failed', FAILED);
    }
    if (loc.agent.interactive_ready === true) return lib.base.ok(w.id, { type: 'agent_started', agent: lib.views.agentInfo(sess, loc), argv: w.argv ?? [] });
    if (w.deadline !== null && now >= w.deadline) {
      // herdr releases the name at the deadline; the process stays in its pane.
      delete loc.agent.name;
      return lib.base.fail(w.id, 'timeout', 'timed out waiting for agent startup');
    }
    // The executable polls anyway; the wake-up only has to come no later than the ready delay or the deadline.
    const readyAt = io === undefined ? Number.POSITIVE_INFINITY : (loc.agent.process?.spawnedAt ?? now) + io.readyAfterMs;
    return { type: 'pending', resume: w, wakeAt: Math.min(w.deadline ?? Number.POSITIVE_INFINITY, readyAt > now ? readyAt : Number.POSITIVE_INFINITY) };
  }

  /**
   * `agent start` in a pane through the process io: spawns the kind's executable there and waits until it is ready;
   * undefined when there is no io or no executable (the caller then simulates the agent).
   */
  function start(c: FakeHerdrCommandCtx, loc: FakeHerdrPaneLoc, launch: { name: string; kind: string; args: string[]; timeoutMs: number }): FakeHerdrOutcome | undefined {
    const io = c.procs;
    if (io === undefined) return undefined;
    const exe = lib.base.kindExe(launch.kind);
    const env: Record<string, string> = {
      ...loc.ws.env, HERDR_ENV: '1', HERDR_SESSION: c.session, HERDR_WORKSPACE_ID: loc.ws.workspace_id, HERDR_TAB_ID: loc.pane.tab_id, HERDR_PANE_ID: loc.pane.pane_id,
    };
    const spawned = io.spawn({ session: c.session, exe, args: launch.args, cwd: loc.pane.cwd, env, key: loc.pane.terminal_id });
    if (spawned.kind === 'simulate') return undefined;
    if (spawned.kind === 'failed') return lib.base.fail('cli:agent:start', 'agent_start_failed', `${FAILED}: ${spawned.message}`);
    const argv = [exe, ...launch.args];
    const agent = lib.model.launchAgent(c.state, c.sess, loc.pane, { name: launch.name, kind: launch.kind, argv, status: 'unknown', pid: spawned.pid });
    agent.launch_pending = true;
    agent.process = { pid: spawned.pid, startTicks: spawned.startTicks, stdout: spawned.stdout, spawnedAt: c.now };
    loc.pane.buffer += `${argv.join(' ')}\n`;
    const pending: FakeHerdrPending = {
      kind: 'start', id: 'cli:agent:start', session: c.session, target: launch.name, terminal_id: loc.pane.terminal_id, until: [],
      startedAt: c.now, deadline: c.now + launch.timeoutMs, timeoutMs: launch.timeoutMs, startSeq: agent.state_change_seq, fromWorking: false, argv,
    };
    return evaluateStart(c.state, c.now, pending, io);
  }

  /** What Enter submits in a pane: `/exit` asks its agent to exit (a spawned one gets SIGTERM and goes once its process is gone). */
  function submit(c: FakeHerdrCommandCtx, loc: FakeHerdrPaneLoc, text: string): void {
    const agent = loc.pane.agent;
    if (agent === null || text.trim() !== EXIT_COMMAND) return;
    if (agent.process === undefined) {
      lib.model.applyStep(c.sess, { ...loc, agent }, 'exit');
      return;
    }
    agent.process.exitRequestedAt = c.now;
    c.procs?.signal(agent.process, 'SIGTERM');
  }

  /** Keys typed into a pane: Enter submits what was typed since the last Enter, Ctrl-C drops it. */
  function typeKeys(c: FakeHerdrCommandCtx, loc: FakeHerdrPaneLoc, keys: readonly string[]): void {
    for (const key of keys) {
      const k = key.toLowerCase();
      if (k === 'enter') {
        const text = loc.pane.typed ?? '';
        delete loc.pane.typed;
        submit(c, loc, text);
      } else if (k === 'ctrl+c' || k === 'c-c') {
        delete loc.pane.typed;
      }
    }
  }

  /** A closing pane takes its agent's process with it (SIGKILL). */
  function killPane(c: FakeHerdrCommandCtx, loc: FakeHerdrPaneLoc): void {
    const proc = loc.pane.agent?.process;
    if (proc !== undefined) c.procs?.signal(proc, 'SIGKILL');
  }

  return { parseOutput, refresh, evaluateStart, start, submit, typeKeys, killPane };
}

import { MamError } from '../../errors.js';
import type { HerdrAgentSession, HerdrAgentStatus } from '../../ports/herdr.js';
import { buildFakeHerdrCore, type FakeHerdrLib } from './fake-herdr-core.js';
import type { FakeHerdrAgentLoc } from './fake-herdr-core-model.js';
import type { FakeHerdrFault, FakeHerdrSession, FakeHerdrState, FakeHerdrStep } from './fake-herdr-types.js';

/**
 * Which fake herdr server an edit is about; absent means `default`.
 * @public
 */
export interface FakeHerdrSessionOption {
  /** The server's session name; default `default`. */
  session?: string;
}

/**
 * An agent to put on a fake herdr server (in a new workspace, or in an existing idle pane).
 * @public
 */
export interface FakeHerdrAgentSeed extends FakeHerdrSessionOption {
  /** The agent name it is addressed by; absent: detected but unnamed. */
  name?: string;
  /** Canonical kind label (`claude`, `codex`, …). */
  kind: string;
  /** Its first status (default `idle`). */
  status?: HerdrAgentStatus;
  /** The new workspace's cwd (default `/fake-herdr/home`); ignored with `paneId`. */
  cwd?: string;
  /** The agent process's pid (default the next fake pid). */
  pid?: number;
  /** The agent process's argv (default the kind's executable alone). */
  argv?: string[];
  /** What the pane shows (`pane read`, `agent read`). */
  buffer?: string;
  /** The conversation herdr reports for it (`agent_session`). */
  agentSession?: HerdrAgentSession;
  /** The pane title the agent set. */
  title?: string;
  /** Workspace label of the new workspace. */
  label?: string;
  /** Host the agent in this existing pane instead of a new workspace. */
  paneId?: string;
}

/**
 * Where a seeded workspace or agent landed.
 * @public
 */
export interface FakeHerdrSeeded {
  /** The server it landed on. */
  session: string;
  /** The workspace id. */
  workspaceId: string;
  /** The pane id. */
  paneId: string;
  /** The pane's terminal id. */
  terminalId: string;
  /** The pid of the pane's shell. */
  shellPid: number;
  /** The agent's pid (absent for a bare workspace). */
  pid?: number;
}

/**
 * Edits a fake herdr state the way a test scripts the world: servers, agents, statuses, exits, faults.
 * @public
 */
export interface FakeHerdrEditor {
  /** The state edited (in place). */
  readonly state: FakeHerdrState;
  /** Creates (or restarts) a server. */
  startSession(name?: string): void;
  /** Stops a server: it answers `server_not_running` and forgets its workspaces. */
  stopSession(name?: string): void;
  /** Adds a workspace with one idle shell pane on a running server. */
  addWorkspace(opts?: FakeHerdrSessionOption & { cwd?: string; label?: string }): FakeHerdrSeeded;
  /**
   * Adds an agent (ready for input) in a new workspace or an existing pane; a name already used throws a MamError
   * `FAKE_HERDR_NAME_TAKEN`.
   */
  addAgent(seed: FakeHerdrAgentSeed): FakeHerdrSeeded;
  /** Sets an agent's status now (a new `state_change_seq`); target: its name or pane id. */
  setStatus(target: string, status: HerdrAgentStatus, opts?: FakeHerdrSessionOption): void;
  /** Steps played one at a time by `agent get` and by each evaluation of a wait. */
  queueStatuses(target: string, steps: readonly FakeHerdrStep[], opts?: FakeHerdrSessionOption): void;
  /** Steps every later prompt queues (default `working`, `idle`; none = the agent never reacts, so `prompt --wait` stalls). */
  onPrompt(target: string, steps: readonly FakeHerdrStep[], opts?: FakeHerdrSessionOption): void;
  /** The agent's process ends now: its name is released and pending waits answer `agent_not_running`. */
  exitAgent(target: string, opts?: FakeHerdrSessionOption): void;
  /** Sets what `agent read` / `pane read` print (target: an agent or a pane id). */
  setBuffer(target: string, text: string, opts?: FakeHerdrSessionOption): void;
  /** Sets (or with null, removes) the conversation herdr reports for the agent. */
  setAgentSession(target: string, agentSession: HerdrAgentSession | null, opts?: FakeHerdrSessionOption): void;
  /** The next `times` (default 1) calls of `op` (herdr's verb such as `agent list`, or a port operation such as `agentPresence`) answer with `fault`. */
  failNext(op: string, fault: FakeHerdrFault, opts?: FakeHerdrSessionOption & { times?: number }): void;
  /** A step applied at `atMs` (epoch ms of the fake's clock) or once `afterCalls` calls were made. */
  schedule(target: string, to: FakeHerdrStep, when: { atMs?: number; afterCalls?: number }, opts?: FakeHerdrSessionOption): void;
}

// A fault may name the port operation instead of herdr's verb.
const VERB_OF_OP: Readonly<Record<string, string>> = {
  workspaceList: 'workspace list', workspaceCreate: 'workspace create', workspaceClose: 'workspace close',
  paneList: 'pane list', paneGet: 'pane get', paneClose: 'pane close', paneProcessInfo: 'pane process-info', paneRead: 'pane read',
  paneSendText: 'pane send-text', paneSendKeys: 'pane send-keys', agentList: 'agent list', agentPresence: 'agent list', agentGet: 'agent get',
  agentRead: 'agent read', agentSendKeys: 'agent send-keys', agentPrompt: 'agent prompt', agentWait: 'agent wait', agentStart: 'agent start',
};

let sharedCore: FakeHerdrLib | undefined;

/**
 * The fake herdr implementation used in this process (built once).
 * @public
 */
export function fakeHerdrCore(): FakeHerdrLib {
  sharedCore ??= buildFakeHerdrCore();
  return sharedCore;
}

/**
 * A fresh fake herdr state: one running `default` server with no workspaces, plus any other running servers named.
 * @public
 */
export function createFakeHerdrState(opts: { sessions?: readonly string[] } = {}): FakeHerdrState {
  const state = fakeHerdrCore().model.newState();
  for (const name of opts.sessions ?? []) fakeHerdrCore().model.ensureSession(state, name);
  return state;
}

function missing(what: string, target: string, session: string): MamError {
  return new MamError('FAKE_HERDR_NOT_FOUND', `fake herdr: no ${what} ${JSON.stringify(target)} on server ${JSON.stringify(session)}`, { target, session });
}

/**
 * An editor over `state` (changed in place).
 * @public
 */
export function editFakeHerdrState(state: FakeHerdrState): FakeHerdrEditor {
  const core = fakeHerdrCore();
  const sessionOf = (opts?: FakeHerdrSessionOption): [string, FakeHerdrSession] => {
    const name = opts?.session ?? 'default';
    const sess = state.sessions[name];
    if (sess === undefined || !sess.running) throw missing('running server', name, name);
    return [name, sess];
  };
  const agentOf = (target: string, opts?: FakeHerdrSessionOption): [FakeHerdrSession, FakeHerdrAgentLoc] => {
    const [name, sess] = sessionOf(opts);
    const loc = core.model.findAgent(sess, target);
    if (loc === undefined) throw missing('agent', target, name);
    return [sess, loc];
  };
  const seeded = (session: string, loc: { ws: { workspace_id: string }; pane: { pane_id: string; terminal_id: string; shell_pid: number } }) => ({
    session, workspaceId: loc.ws.workspace_id, paneId: loc.pane.pane_id, terminalId: loc.pane.terminal_id, shellPid: loc.pane.shell_pid,
  });
  const editor: FakeHerdrEditor = {
    state,
    startSession: (name = 'default') => {
      core.model.ensureSession(state, name).running = true;
    },
    stopSession: (name = 'default') => {
      state.sessions[name] = core.model.newSession(false);
    },
    addWorkspace: (opts = {}) => {
      const [name, sess] = sessionOf(opts);
      return seeded(name, core.model.addWorkspace(state, sess, { ...(opts.cwd === undefined ? {} : { cwd: opts.cwd }), ...(opts.label === undefined ? {} : { label: opts.label }) }));
    },
    addAgent: (seed) => {
      const [name, sess] = sessionOf(seed);
      if (seed.name !== undefined && core.model.findAgent(sess, seed.name)?.agent.name === seed.name) throw new MamError('FAKE_HERDR_NAME_TAKEN', `fake herdr: agent name ${seed.name} is already used`, { name: seed.name });
      const loc = seed.paneId === undefined ? core.model.addWorkspace(state, sess, { ...(seed.cwd === undefined ? {} : { cwd: seed.cwd }), ...(seed.label === undefined ? {} : { label: seed.label }) }) : core.model.locatePane(sess, seed.paneId);
      if (loc === undefined) throw missing('pane', seed.paneId ?? '', name);
      const agent = core.model.launchAgent(state, sess, loc.pane, {
        kind: seed.kind, interactiveReady: true,
        ...(seed.name === undefined ? {} : { name: seed.name }), ...(seed.status === undefined ? {} : { status: seed.status }),
        ...(seed.pid === undefined ? {} : { pid: seed.pid }), ...(seed.argv === undefined ? {} : { argv: seed.argv }),
        ...(seed.agentSession === undefined ? {} : { agentSession: seed.agentSession }), ...(seed.title === undefined ? {} : { title: seed.title }),
      });
      if (seed.buffer !== undefined) loc.pane.buffer = seed.buffer;
      return { ...seeded(name, loc), pid: agent.pid };
    },
    setStatus: (target, status, opts) => {
      const [sess, loc] = agentOf(target, opts);
      core.model.setStatus(sess, loc, status);
    },
    queueStatuses: (target, steps, opts) => {
      agentOf(target, opts)[1].agent.queue.push(...steps);
    },
    onPrompt: (target, steps, opts) => {
      agentOf(target, opts)[1].agent.onPrompt = [...steps];
    },
    exitAgent: (target, opts) => {
      const [sess, loc] = agentOf(target, opts);
      core.model.applyStep(sess, loc, 'exit');
    },
    setBuffer: (target, text, opts) => {
      const [name, sess] = sessionOf(opts);
      const loc = core.model.findAgent(sess, target) ?? core.model.locatePane(sess, target);
      if (loc === undefined) throw missing('agent or pane', target, name);
      loc.pane.buffer = text;
      loc.pane.revision += 1;
    },
    setAgentSession: (target, agentSession, opts) => {
      const { agent } = agentOf(target, opts)[1];
      if (agentSession === null) delete agent.agent_session;
      else agent.agent_session = agentSession;
    },
    failNext: (op, fault, opts = {}) => {
      state.faults.push({ op: VERB_OF_OP[op] ?? op, fault, times: opts.times ?? 1, ...(opts.session === undefined ? {} : { session: opts.session }) });
    },
    schedule: (target, to, when, opts) => {
      state.transitions.push({ session: opts?.session ?? 'default', agent: target, to, ...when });
    },
  };
  return editor;
}

import type { fakeHerdrBase } from './fake-herdr-core-base.js';
import type { HerdrAgentSession, HerdrAgentStatus } from '../../ports/herdr.js';
import type { FakeHerdrAgent, FakeHerdrPane, FakeHerdrSession, FakeHerdrState, FakeHerdrStep, FakeHerdrWorkspace } from './fake-herdr-types.js';

/**
 * A pane and the workspace holding it.
 * @public
 */
export interface FakeHerdrPaneLoc {
  ws: FakeHerdrWorkspace;
  pane: FakeHerdrPane;
}

/**
 * A pane that hosts an agent.
 * @public
 */
export interface FakeHerdrAgentLoc extends FakeHerdrPaneLoc {
  agent: FakeHerdrAgent;
}

/**
 * What an agent is launched with.
 * @public
 */
export interface FakeHerdrAgentLaunch {
  name?: string;
  kind: string;
  status?: HerdrAgentStatus;
  pid?: number;
  argv?: string[];
  cwd?: string;
  agentSession?: HerdrAgentSession;
  title?: string;
  interactiveReady?: boolean;
}

/** The parts of the fake herdr's lib this part reaches (the others it never names). */
type Reach = {
  base: ReturnType<typeof fakeHerdrBase>;
};

/**
 * Core part: the state model (sessions, workspaces, panes, agents) and its mutations. Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrModel(lib: Reach) {
  function newSession(running: boolean): FakeHerdrSession {
    return { running, seq: 0, nextWorkspace: 1, nextTerminal: 1, focusedPane: null, workspaces: [] };
  }

  function newState(): FakeHerdrState {
    return { version: 1, calls: 0, nextPid: 41001, sessions: { default: newSession(true) }, transitions: [], faults: [] };
  }

  function ensureSession(state: FakeHerdrState, name: string): FakeHerdrSession {
    const existing = state.sessions[name];
    if (existing !== undefined) return existing;
    const created = newSession(true);
    state.sessions[name] = created;
    return created;
  }

  function allocPid(state: FakeHerdrState): number {
    state.nextPid += 1;
    return state.nextPid - 1;
  }

  function addPane(state: FakeHerdrState, sess: FakeHerdrSession, ws: FakeHerdrWorkspace, opts: { cwd?: string; label?: string }): FakeHerdrPane {
    const tab = ws.tabs[0];
    const pane: FakeHerdrPane = {
      pane_id: `${ws.workspace_id}:p${lib.base.encodeId(ws.nextPane)}`,
      terminal_id: `term_${(0x63a1f0c2b00 + sess.nextTerminal).toString(16)}`,
      tab_id: tab === undefined ? `${ws.workspace_id}:t1` : tab.tab_id,
      cwd: opts.cwd ?? ws.panes[0]?.cwd ?? '/fake-herdr/home',
      shell_pid: allocPid(state),
      buffer: '',
      revision: 1,
      input: [],
      agent: null,
    };
    if (opts.label !== undefined) pane.label = opts.label;
    ws.nextPane += 1;
    sess.nextTerminal += 1;
    ws.panes.push(pane);
    if (sess.focusedPane === null) sess.focusedPane = pane.pane_id;
    return pane;
  }

  function addWorkspace(
    state: FakeHerdrState,
    sess: FakeHerdrSession,
    opts: { cwd?: string; label?: string; env?: Record<string, string>; focus?: boolean },
  ): FakeHerdrPaneLoc {
    const workspaceId = `w${lib.base.encodeId(sess.nextWorkspace)}`;
    sess.nextWorkspace += 1;
    const cwd = opts.cwd ?? '/fake-herdr/home';
    const label = opts.label ?? (cwd.split('/').filter((p) => p !== '').pop() ?? cwd);
    const ws: FakeHerdrWorkspace = { workspace_id: workspaceId, label, nextPane: 1, tabs: [{ tab_id: `${workspaceId}:t1`, label: '1' }], panes: [], env: opts.env ?? {} };
    sess.workspaces.push(ws);
    const pane = addPane(state, sess, ws, { cwd });
    if (opts.focus === true) sess.focusedPane = pane.pane_id;
    return { ws, pane };
  }

  function panesOf(sess: FakeHerdrSession): FakeHerdrPaneLoc[] {
    return sess.workspaces.flatMap((ws) => ws.tabs.flatMap((tab) => ws.panes.filter((p) => p.tab_id === tab.tab_id).map((pane) => ({ ws, pane }))));
  }

  function locatePane(sess: FakeHerdrSession, paneId: string): FakeHerdrPaneLoc | undefined {
    return panesOf(sess).find((l) => l.pane.pane_id === paneId);
  }

  // An agent target is a live agent's name or the current pane id hosting an agent.
  function findAgent(sess: FakeHerdrSession, target: string): FakeHerdrAgentLoc | undefined {
    const hosted = panesOf(sess).flatMap((l) => (l.pane.agent === null ? [] : [{ ...l, agent: l.pane.agent }]));
    return hosted.find((l) => l.agent.name === target) ?? hosted.find((l) => l.pane.pane_id === target);
  }

  function refocus(sess: FakeHerdrSession): void {
    if (sess.focusedPane !== null && locatePane(sess, sess.focusedPane) === undefined) sess.focusedPane = panesOf(sess)[0]?.pane.pane_id ?? null;
  }

  function removeWorkspace(sess: FakeHerdrSession, workspaceId: string): void {
    sess.workspaces = sess.workspaces.filter((w) => w.workspace_id !== workspaceId);
    refocus(sess);
  }

  // Closing the last pane closes its workspace.
  function removePane(sess: FakeHerdrSession, loc: FakeHerdrPaneLoc): void {
    loc.ws.panes = loc.ws.panes.filter((p) => p.pane_id !== loc.pane.pane_id);
    if (loc.ws.panes.length === 0) removeWorkspace(sess, loc.ws.workspace_id);
    refocus(sess);
  }

  function launchAgent(state: FakeHerdrState, sess: FakeHerdrSession, pane: FakeHerdrPane, launch: FakeHerdrAgentLaunch): FakeHerdrAgent {
    sess.seq += 1;
    const agent: FakeHerdrAgent = {
      kind: launch.kind,
      status: launch.status ?? 'idle',
      pid: launch.pid ?? allocPid(state),
      argv: launch.argv ?? [lib.base.kindExe(launch.kind)],
      state_change_seq: sess.seq,
      queue: [],
    };
    if (launch.name !== undefined) agent.name = launch.name;
    if (launch.cwd !== undefined) agent.cwd = launch.cwd;
    if (launch.agentSession !== undefined) agent.agent_session = launch.agentSession;
    if (launch.title !== undefined) agent.title = launch.title;
    if (launch.interactiveReady === true) agent.interactive_ready = true;
    pane.agent = agent;
    pane.revision += 1;
    return agent;
  }

  // idle <-> done is not a state change for state_change_seq (done is only "unseen idle").
  function setStatus(sess: FakeHerdrSession, loc: FakeHerdrAgentLoc, status: HerdrAgentStatus): void {
    const from = loc.agent.status;
    if (from === status) return;
    const quiet = (from === 'idle' && status === 'done') || (from === 'done' && status === 'idle');
    if (!quiet) {
      sess.seq += 1;
      loc.agent.state_change_seq = sess.seq;
    }
    loc.agent.status = status;
    loc.pane.revision += 1;
  }

  function applyStep(sess: FakeHerdrSession, loc: FakeHerdrAgentLoc, step: FakeHerdrStep): void {
    if (step === 'exit') {
      loc.pane.agent = null;
      loc.pane.revision += 1;
      return;
    }
    setStatus(sess, loc, step);
  }

  function consumeQueue(sess: FakeHerdrSession, loc: FakeHerdrAgentLoc): boolean {
    const step = loc.agent.queue.shift();
    if (step === undefined) return false;
    applyStep(sess, loc, step);
    return true;
  }

  function applyTransitions(state: FakeHerdrState, now: number): void {
    const due = (t: { atMs?: number; afterCalls?: number }): boolean =>
      (t.atMs !== undefined && now >= t.atMs) || (t.afterCalls !== undefined && state.calls >= t.afterCalls);
    const ready = state.transitions.filter(due);
    state.transitions = state.transitions.filter((t) => !due(t));
    for (const t of ready) {
      const sess = state.sessions[t.session];
      const loc = sess === undefined ? undefined : findAgent(sess, t.agent);
      if (sess !== undefined && loc !== undefined) applyStep(sess, loc, t.to);
    }
  }

  function nextTransitionAt(state: FakeHerdrState, session: string): number {
    return state.transitions.reduce((min, t) => (t.session === session && t.atMs !== undefined && t.atMs < min ? t.atMs : min), Number.POSITIVE_INFINITY);
  }

  return {
    newState, newSession, ensureSession, allocPid, addPane, addWorkspace, panesOf, locatePane, findAgent,
    removeWorkspace, removePane, launchAgent, setStatus, applyStep, consumeQueue, applyTransitions, nextTransitionAt,
  };
}

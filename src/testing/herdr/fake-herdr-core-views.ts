import type { FakeHerdrAgentLoc, FakeHerdrPaneLoc } from './fake-herdr-core-model.js';
import type { FakeHerdrSession, FakeHerdrWorkspace } from './fake-herdr-types.js';

type Json = Record<string, unknown>;

/**
 * Core part: herdr's JSON views (AgentInfo, PaneInfo, TabInfo, WorkspaceInfo, process info). Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrViews(_lib: object) {
  // The status a workspace or tab shows: the most urgent of its agents.
  function aggregate(statuses: string[]): string {
    for (const s of ['blocked', 'working', 'done', 'idle']) if (statuses.includes(s)) return s;
    return 'unknown';
  }

  function statusesOf(panes: FakeHerdrPaneLoc['pane'][]): string[] {
    return panes.map((p) => (p.agent === null ? 'unknown' : p.agent.status));
  }

  // Optional fields are omitted when empty or false, never null.
  function agentInfo(sess: FakeHerdrSession, loc: FakeHerdrAgentLoc): Json {
    const { ws, pane, agent } = loc;
    const cwd = agent.cwd ?? pane.cwd;
    return {
      terminal_id: pane.terminal_id,
      agent_status: agent.status,
      workspace_id: ws.workspace_id,
      tab_id: pane.tab_id,
      pane_id: pane.pane_id,
      focused: sess.focusedPane === pane.pane_id,
      state_change_seq: agent.state_change_seq,
      revision: pane.revision,
      name: agent.name,
      agent: agent.kind,
      title: agent.title,
      cwd: pane.cwd,
      foreground_cwd: cwd,
      agent_session: agent.agent_session,
      interactive_ready: agent.interactive_ready === true ? true : undefined,
      launch_pending: agent.launch_pending === true ? true : undefined,
    };
  }

  function paneInfo(sess: FakeHerdrSession, loc: FakeHerdrPaneLoc): Json {
    const { ws, pane } = loc;
    const agent = pane.agent;
    return {
      pane_id: pane.pane_id,
      terminal_id: pane.terminal_id,
      workspace_id: ws.workspace_id,
      tab_id: pane.tab_id,
      focused: sess.focusedPane === pane.pane_id,
      agent_status: agent === null ? 'unknown' : agent.status,
      revision: pane.revision,
      cwd: pane.cwd,
      foreground_cwd: agent?.cwd ?? pane.cwd,
      label: pane.label,
      agent: agent?.kind,
      agent_session: agent?.agent_session,
    };
  }

  function tabInfo(sess: FakeHerdrSession, ws: FakeHerdrWorkspace, index: number): Json {
    const tab = ws.tabs[index];
    const tabId = tab === undefined ? '' : tab.tab_id;
    const panes = ws.panes.filter((p) => p.tab_id === tabId);
    return {
      tab_id: tabId,
      workspace_id: ws.workspace_id,
      number: index + 1,
      label: tab === undefined ? '' : tab.label,
      focused: panes.some((p) => p.pane_id === sess.focusedPane),
      pane_count: panes.length,
      agent_status: aggregate(statusesOf(panes)),
    };
  }

  function workspaceInfo(sess: FakeHerdrSession, ws: FakeHerdrWorkspace): Json {
    const focusedPane = ws.panes.find((p) => p.pane_id === sess.focusedPane);
    return {
      workspace_id: ws.workspace_id,
      number: sess.workspaces.indexOf(ws) + 1,
      label: ws.label,
      focused: focusedPane !== undefined,
      pane_count: ws.panes.length,
      tab_count: ws.tabs.length,
      active_tab_id: focusedPane?.tab_id ?? ws.tabs[0]?.tab_id ?? '',
      agent_status: aggregate(statusesOf(ws.panes)),
    };
  }

  // The foreground is the agent's process when one runs, else the shell itself; tty is never set by herdr 0.8.
  function processInfo(loc: FakeHerdrPaneLoc): Json {
    const { pane } = loc;
    const agent = pane.agent;
    const argv = agent === null ? ['bash'] : agent.argv;
    const pid = agent === null ? pane.shell_pid : agent.pid;
    const name = (argv[0] ?? 'bash').split('/').pop() ?? 'bash';
    return {
      pane_id: pane.pane_id,
      shell_pid: pane.shell_pid,
      foreground_process_group_id: pid,
      foreground_processes: [{ pid, name, argv0: argv[0], argv, cmdline: argv.join(' '), cwd: agent?.cwd ?? pane.cwd }],
    };
  }

  return { aggregate, agentInfo, paneInfo, tabInfo, workspaceInfo, processInfo };
}

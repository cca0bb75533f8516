/**
 * herdr's agent status values.
 * @public
 */
export type HerdrAgentStatus = 'idle' | 'working' | 'blocked' | 'done' | 'unknown';

/**
 * The agent's own conversation reference, when an official herdr integration reported it.
 * @public
 */
export interface HerdrAgentSession {
  source: string;
  agent: string;
  kind: 'id' | 'path';
  value: string;
}

/**
 * herdr's AgentInfo (fields omitted by herdr are optional here).
 * @public
 */
export interface HerdrAgentInfo {
  terminal_id: string;
  agent_status: HerdrAgentStatus;
  workspace_id: string;
  tab_id: string;
  pane_id: string;
  focused: boolean;
  state_change_seq: number;
  revision: number;
  name?: string;
  agent?: string;
  title?: string;
  cwd?: string;
  foreground_cwd?: string;
  agent_session?: HerdrAgentSession;
  launch_pending?: boolean;
  interactive_ready?: boolean;
  [extra: string]: unknown;
}

/**
 * herdr's PaneInfo.
 * @public
 */
export interface HerdrPaneInfo {
  pane_id: string;
  terminal_id: string;
  workspace_id: string;
  tab_id: string;
  focused: boolean;
  agent_status: HerdrAgentStatus;
  revision: number;
  cwd?: string;
  label?: string;
  agent?: string;
  agent_session?: HerdrAgentSession;
  [extra: string]: unknown;
}

/**
 * herdr's WorkspaceInfo.
 * @public
 */
export interface HerdrWorkspaceInfo {
  workspace_id: string;
  number: number;
  label: string;
  focused: boolean;
  pane_count: number;
  tab_count: number;
  active_tab_id: string;
  agent_status: HerdrAgentStatus;
  [extra: string]: unknown;
}

/**
 * The answer of `workspace create`.
 * @public
 */
export interface HerdrWorkspaceCreated {
  workspace: HerdrWorkspaceInfo;
  tab: Record<string, unknown>;
  root_pane: HerdrPaneInfo;
}

/**
 * One foreground process of a pane.
 * @public
 */
export interface HerdrForegroundProcess {
  pid: number;
  name: string;
  argv0?: string;
  argv?: string[];
  cmdline?: string;
  cwd?: string;
}

/**
 * herdr's `pane process-info` answer.
 * @public
 */
export interface HerdrPaneProcessInfo {
  pane_id: string;
  shell_pid?: number;
  foreground_process_group_id?: number;
  tty?: string;
  foreground_processes?: HerdrForegroundProcess[];
}

/**
 * `herdr status server --json`.
 * @public
 */
export interface HerdrServerStatus {
  status: 'running' | 'not_running';
  running: boolean;
  version?: string | null;
  protocol?: number | null;
  [extra: string]: unknown;
}

/**
 * The answer of `agent start`.
 * @public
 */
export interface HerdrAgentStarted {
  agent: HerdrAgentInfo;
  argv: string[];
}

/**
 * Every herdr call answers with one of these; a call never throws for an answer herdr gave.
 * - `ok`: the parsed result;
 * - `error`: herdr's own error code and message (exit 1), or a usage error (exit 2, code `usage`);
 * - `transport_error`: spawn failure, unparseable output, or an unexpected exit.
 * @public
 */
export type HerdrResult<T> =
  | { kind: 'ok'; value: T }
  | { kind: 'error'; code: string; message: string; exitCode: number }
  | { kind: 'transport_error'; message: string; exitCode: number | null; stderr: string };

/**
 * Is a named agent live on a herdr server: parsed from `agent list`.
 * `server_not_running` is kept apart so callers decide (the id-order gate keeps a marker on it).
 * @public
 */
export type HerdrPresence = 'present' | 'absent' | 'server_not_running' | 'unknown';

/**
 * Options every herdr call takes: which herdr session (server) to address; absent = herdr's own default resolution.
 * @public
 */
export interface HerdrCallOptions {
  session?: string;
  /** Give up after this many ms (transport_error). */
  deadlineMs?: number;
}

/**
 * Text sources of `agent read` / `pane read`.
 * @public
 */
export type HerdrReadSource = 'visible' | 'recent' | 'recent-unwrapped' | 'detection';

/**
 * The herdr operations the library uses; the real one is the `herdr` CLI, the fakes are in `@mam/core/testing`.
 * @public
 */
export interface HerdrPort {
  serverStatus(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrServerStatus>>;
  workspaceList(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrWorkspaceInfo[]>>;
  workspaceCreate(args: { cwd?: string; label?: string; env?: Record<string, string> }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrWorkspaceCreated>>;
  workspaceClose(workspaceId: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  paneList(args?: { workspace?: string }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneInfo[]>>;
  paneGet(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneInfo>>;
  paneClose(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  paneProcessInfo(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneProcessInfo>>;
  paneRead(paneId: string, args?: { source?: HerdrReadSource; lines?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<string>>;
  paneSendText(paneId: string, text: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  paneSendKeys(paneId: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  agentList(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo[]>>;
  agentGet(target: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>>;
  agentRead(target: string, args?: { source?: HerdrReadSource; lines?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<string>>;
  agentSendKeys(target: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  agentPrompt(target: string, text: string, args?: { wait?: boolean; until?: readonly HerdrAgentStatus[]; timeoutMs?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>>;
  agentWait(target: string, args: { until: readonly HerdrAgentStatus[]; timeoutMs: number }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>>;
  agentStart(name: string, args: { kind: string; pane: string; timeoutMs?: number; argv?: readonly string[] }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentStarted>>;
  /** Tri-state (plus server_not_running) presence of a name in `agent list`. */
  agentPresence(name: string, opts?: HerdrCallOptions): Promise<HerdrPresence>;
}

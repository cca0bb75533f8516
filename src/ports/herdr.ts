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
  /** Who reported it, e.g. `herdr:claude` (herdr stores only official integration sources). */
  source: string;
  /** The agent kind the report is for, e.g. `claude`. */
  agent: string;
  /** `id`: `value` is the conversation id; `path`: an absolute file path (pi and omp only). */
  kind: 'id' | 'path';
  /** The conversation id or path; capture still verifies it against disk. */
  value: string;
}

/**
 * herdr's AgentInfo (fields omitted by herdr are optional here).
 * @public
 */
export interface HerdrAgentInfo {
  /** herdr's terminal id (`term_…`); not a valid agent target. */
  terminal_id: string;
  /** The agent's current status. */
  agent_status: HerdrAgentStatus;
  /** The workspace holding the agent's pane, e.g. `w2X`. */
  workspace_id: string;
  /** The tab holding the agent's pane, e.g. `w2X:t1`. */
  tab_id: string;
  /** The pane hosting the agent, e.g. `w2X:p1`; a valid agent target while current. */
  pane_id: string;
  /** Whether the agent's pane has focus. */
  focused: boolean;
  /** Server-global counter stamped on each state change (not idle↔done); resets when the server restarts. */
  state_change_seq: number;
  /** herdr's revision counter of the pane's content. */
  revision: number;
  /** The agent's herdr name (`[a-z][a-z0-9_-]{0,31}`); absent for an unnamed agent. */
  name?: string;
  /** The detected agent kind (canonical label, e.g. `claude`); absent when none is detected. */
  agent?: string;
  /** The pane title, when herdr has one. */
  title?: string;
  /** The pane's working directory, when known. */
  cwd?: string;
  /** The working directory of the pane's foreground process, when known. */
  foreground_cwd?: string;
  /** The agent's own conversation reference; absent without an installed herdr integration. */
  agent_session?: HerdrAgentSession;
  /** `true` while an `agent start` launch is still pending; absent otherwise. */
  launch_pending?: boolean;
  /** `true` once an `agent start` agent was detected idle or blocked after herdr's settle; absent otherwise. */
  interactive_ready?: boolean;
  /** Fields of newer herdr versions, kept as they came. */
  [extra: string]: unknown;
}

/**
 * herdr's PaneInfo.
 * @public
 */
export interface HerdrPaneInfo {
  /** The pane id, e.g. `w2X:p1` (changes when the pane moves to another workspace). */
  pane_id: string;
  /** herdr's terminal id (`term_…`). */
  terminal_id: string;
  /** The workspace holding the pane. */
  workspace_id: string;
  /** The tab holding the pane. */
  tab_id: string;
  /** Whether the pane has focus. */
  focused: boolean;
  /** The status of the pane's agent; `unknown` for a plain shell. */
  agent_status: HerdrAgentStatus;
  /** herdr's revision counter of the pane's content. */
  revision: number;
  /** The pane's working directory; absent when empty. */
  cwd?: string;
  /** The pane's label; absent when empty. */
  label?: string;
  /** The detected agent kind; absent for a plain shell. */
  agent?: string;
  /** The agent's own conversation reference; absent without an installed herdr integration. */
  agent_session?: HerdrAgentSession;
  /** Fields of newer herdr versions, kept as they came. */
  [extra: string]: unknown;
}

/**
 * herdr's WorkspaceInfo.
 * @public
 */
export interface HerdrWorkspaceInfo {
  /** The workspace id, e.g. `w2X`. */
  workspace_id: string;
  /** The workspace's 1-based position. */
  number: number;
  /** The workspace's label. */
  label: string;
  /** Whether the workspace has focus. */
  focused: boolean;
  /** How many panes it holds. */
  pane_count: number;
  /** How many tabs it holds. */
  tab_count: number;
  /** The id of its active tab. */
  active_tab_id: string;
  /** The aggregate status of its agents. */
  agent_status: HerdrAgentStatus;
  /** Fields of newer herdr versions, kept as they came. */
  [extra: string]: unknown;
}

/**
 * The answer of `workspace create`.
 * @public
 */
export interface HerdrWorkspaceCreated {
  /** The new workspace. */
  workspace: HerdrWorkspaceInfo;
  /** herdr's TabInfo of its first tab, unparsed. */
  tab: Record<string, unknown>;
  /** The workspace's first pane: where an agent is started. */
  root_pane: HerdrPaneInfo;
}

/**
 * One foreground process of a pane.
 * @public
 */
export interface HerdrForegroundProcess {
  /** The process id. */
  pid: number;
  /** The process name. */
  name: string;
  /** `argv[0]` as the process sees it, when known. */
  argv0?: string;
  /** The full argument vector, when known. */
  argv?: string[];
  /** The command line as one string, when known. */
  cmdline?: string;
  /** The process's working directory, when known. */
  cwd?: string;
}

/**
 * herdr's `pane process-info` answer.
 * @public
 */
export interface HerdrPaneProcessInfo {
  /** The pane asked about. */
  pane_id: string;
  /** The pid of the pane's shell, when known. */
  shell_pid?: number;
  /** The terminal's foreground process group, when known. */
  foreground_process_group_id?: number;
  /** The pane's tty (herdr 0.8 never sets it). */
  tty?: string;
  /** The processes of the foreground group; absent when empty. */
  foreground_processes?: HerdrForegroundProcess[];
}

/**
 * `herdr status server --json`.
 * @public
 */
export interface HerdrServerStatus {
  /** Whether a server answers on the session's socket. */
  status: 'running' | 'not_running';
  /** `true` when `status` is `running`. */
  running: boolean;
  /** The server's herdr version; `null` or absent when unknown (e.g. not running). */
  version?: string | null;
  /** The server's protocol number (herdr 0.8 speaks 20); `null` or absent when unknown (e.g. not running). */
  protocol?: number | null;
  /** Other fields (`socket`, `session`, `compatible`, …), kept as they came. */
  [extra: string]: unknown;
}

/**
 * The answer of `agent start`.
 * @public
 */
export interface HerdrAgentStarted {
  /** The started agent, refreshed once it became interactive. */
  agent: HerdrAgentInfo;
  /** The argv herdr launched: executable first, then the arguments. */
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
  /** The herdr session name (`--session`); `default` is the default server. */
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
  /** `herdr status server --json`: whether the session's server runs (never an error when it does not). */
  serverStatus(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrServerStatus>>;
  /** Every workspace of the server. */
  workspaceList(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrWorkspaceInfo[]>>;
  /** Creates a workspace (with `cwd`, `label`, extra env for its panes) and answers it with its root pane. */
  workspaceCreate(args: { cwd?: string; label?: string; env?: Record<string, string> }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrWorkspaceCreated>>;
  /** Closes a workspace and all of its panes. */
  workspaceClose(workspaceId: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  /** Every pane, or only those of one workspace. */
  paneList(args?: { workspace?: string }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneInfo[]>>;
  /** One pane by id; herdr's `pane_not_found` error when it is gone. */
  paneGet(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneInfo>>;
  /** Closes a pane (the last one closes its workspace); may answer `confirmation_required`. */
  paneClose(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  /** The pids, argv and cwd of a pane's foreground processes. */
  paneProcessInfo(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneProcessInfo>>;
  /** A pane's text from `source` (herdr's default `recent`, 80 rows), ANSI stripped. */
  paneRead(paneId: string, args?: { source?: HerdrReadSource; lines?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<string>>;
  /** Types `text` into a pane without pressing Enter. */
  paneSendText(paneId: string, text: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  /** Sends named keys (`enter`, `esc`, `ctrl+c` …) to a pane. */
  paneSendKeys(paneId: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  /** Every agent of the server, in workspace → tab → layout order. */
  agentList(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo[]>>;
  /** One agent by name or current pane id; herdr's `agent_not_found` error when there is none. */
  agentGet(target: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>>;
  /** An agent's pane text from `source`, ANSI stripped. */
  agentRead(target: string, args?: { source?: HerdrReadSource; lines?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<string>>;
  /** Sends named keys to an agent; herdr validates every key before sending any. */
  agentSendKeys(target: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>>;
  /** Sends `text` (one literal argument) and Enter; with `wait`, answers once the status is in `until` (default idle/done/blocked). */
  agentPrompt(target: string, text: string, args?: { wait?: boolean; until?: readonly HerdrAgentStatus[]; timeoutMs?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>>;
  /** Waits until the agent's status is one of `until`, or answers herdr's `timeout` error after `timeoutMs`. */
  agentWait(target: string, args: { until: readonly HerdrAgentStatus[]; timeoutMs: number }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>>;
  /** Starts an agent of `kind` named `name` in the shell pane `pane` and answers once it is interactive. */
  agentStart(name: string, args: { kind: string; pane: string; timeoutMs?: number; argv?: readonly string[] }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentStarted>>;
  /** Tri-state (plus server_not_running) presence of a name in `agent list`. */
  agentPresence(name: string, opts?: HerdrCallOptions): Promise<HerdrPresence>;
}

import type { HerdrAgentSession, HerdrAgentStatus } from '../../ports/herdr.js';

/**
 * One scripted step of an agent: a new status, or `exit` (the agent's process ends and its name is released).
 * @public
 */
export type FakeHerdrStep = HerdrAgentStatus | 'exit';

/**
 * An agent hosted by a fake pane.
 * @public
 */
export interface FakeHerdrAgent {
  /** The agent name (herdr's rule); unnamed agents are detected but not addressable by name. */
  name?: string;
  /** Canonical kind label (`claude`, `codex`, …). */
  kind: string;
  /** The agent's current status. */
  status: HerdrAgentStatus;
  /** Pid of the agent's foreground process (`pane process-info`). */
  pid: number;
  /** The agent process's argv. */
  argv: string[];
  /** Foreground cwd, when it differs from the pane's. */
  cwd?: string;
  /** The conversation herdr reports for the agent (`agent_session`), when it knows one. */
  agent_session?: HerdrAgentSession;
  /** The server-wide `state_change_seq` of the agent's last status change. */
  state_change_seq: number;
  /** True once the agent is ready for input (reported by `agent get`). */
  interactive_ready?: boolean;
  /** The pane title the agent set, if any. */
  title?: string;
  /** Steps consumed one at a time by `agent get` and by each evaluation of a wait. */
  queue: FakeHerdrStep[];
  /** Steps queued by every prompt; absent means `['working', 'idle']`, empty means the agent never reacts. */
  onPrompt?: FakeHerdrStep[];
  /** Startup still pending (a spawned agent that has not said `ready` yet). */
  launch_pending?: boolean;
  /** The real process behind the agent, when the fake executable spawned one (never set in-process). */
  process?: FakeHerdrAgentProcess;
}

/**
 * A real agent process the fake herdr executable spawned for `agent start`.
 * @public
 */
export interface FakeHerdrAgentProcess {
  /** The spawned process's pid. */
  pid: number;
  /** Start in clock ticks since boot (field 22 of `/proc/<pid>/stat`), the pid-reuse guard; null where `/proc` is missing. */
  startTicks: number | null;
  /** The file its stdout goes to (`ready`, `session <id>` lines are read from it). */
  stdout: string;
  /** When it was spawned (epoch ms). */
  spawnedAt: number;
  /** When `/exit` + Enter asked it to exit (epoch ms), if so. */
  exitRequestedAt?: number;
}

/**
 * What was typed into a fake pane.
 * @public
 */
export interface FakeHerdrInput {
  /** How it was typed: `pane send-text`, `pane send-keys`, `agent prompt` or `pane run`. */
  kind: 'text' | 'keys' | 'prompt' | 'run';
  /** The text or key names sent, in order. */
  value: string[];
}

/**
 * A fake pane: a shell, maybe hosting an agent.
 * @public
 */
export interface FakeHerdrPane {
  /** herdr's pane id, `<workspace>:p<n>`. */
  pane_id: string;
  /** herdr's terminal id (`term_…`); a new one for every pane. */
  terminal_id: string;
  /** The tab the pane is in. */
  tab_id: string;
  /** The pane shell's cwd. */
  cwd: string;
  /** The pane's label, if set. */
  label?: string;
  /** The pid of the pane's shell. */
  shell_pid: number;
  /** What `pane read` / `agent read` print. */
  buffer: string;
  /** Bumped whenever the pane's buffer or agent changes. */
  revision: number;
  /** Everything typed into the pane, oldest first. */
  input: FakeHerdrInput[];
  /** Text typed since the last Enter (what Enter submits). */
  typed?: string;
  /** The agent the pane hosts, or null for a plain shell. */
  agent: FakeHerdrAgent | null;
}

/**
 * A fake workspace (one tab per workspace unless seeded otherwise).
 * @public
 */
export interface FakeHerdrWorkspace {
  /** herdr's workspace id, `w<n>`. */
  workspace_id: string;
  /** The workspace label. */
  label: string;
  /** The number the next pane's id gets. */
  nextPane: number;
  /** The tabs, in order; the first one receives new panes. */
  tabs: Array<{ tab_id: string; label: string }>;
  /** The panes of every tab. */
  panes: FakeHerdrPane[];
  /** Variables every agent process spawned in the workspace inherits. */
  env: Record<string, string>;
}

/**
 * One fake herdr server (a herdr session).
 * @public
 */
export interface FakeHerdrSession {
  /** False when the server is not running: every call answers `server_not_running`. */
  running: boolean;
  /** Server-global `state_change_seq` counter. */
  seq: number;
  /** The number the next workspace's id gets. */
  nextWorkspace: number;
  /** The number the next terminal id is derived from. */
  nextTerminal: number;
  /** The focused pane's id (the default target of pane commands given none), or null with no pane. */
  focusedPane: string | null;
  /** The server's workspaces, in creation order. */
  workspaces: FakeHerdrWorkspace[];
}

/**
 * A scripted change applied once its time (`atMs`, epoch ms) or call count (`afterCalls`) is reached.
 * @public
 */
export interface FakeHerdrTransition {
  /** The herdr server (session) the agent lives on. */
  session: string;
  /** Agent name or pane id. */
  agent: string;
  /** The status the agent moves to, or `exit`. */
  to: FakeHerdrStep;
  /** Apply once the fake's clock reaches this time (epoch ms). */
  atMs?: number;
  /** Apply once this many calls were made (all sessions). */
  afterCalls?: number;
}

/**
 * An injected fault: herdr's error (exit 1), a transport failure (garbage, exit 101), or a call that never answers.
 * @public
 */
export type FakeHerdrFault = { code: string; message: string } | 'transport' | 'hang';

/**
 * A queued fault for the next `times` calls of `op` (`agent list`, `pane close`, …).
 * @public
 */
export interface FakeHerdrFaultRule {
  /** The verb it applies to, e.g. `agent list` (`--session` stripped). */
  op: string;
  /** What the call answers instead. */
  fault: FakeHerdrFault;
  /** Only calls to this server; default any. */
  session?: string;
  /** How many more calls it answers; the rule goes at 0. */
  times: number;
}

/**
 * Everything a fake herdr knows; the executable keeps it in a JSON file, FakeHerdr in memory.
 * @public
 */
export interface FakeHerdrState {
  /** State format version; always 1. */
  version: 1;
  /** Calls made so far (all sessions). */
  calls: number;
  /** The pid the next fake process gets. */
  nextPid: number;
  /** The servers, by session name (`default` exists from the start). */
  sessions: Record<string, FakeHerdrSession>;
  /** Scripted changes not yet applied. */
  transitions: FakeHerdrTransition[];
  /** Queued faults, matched first to last. */
  faults: FakeHerdrFaultRule[];
}

/**
 * A wait in progress (`agent wait`, `agent prompt --wait`), carried between evaluations.
 * @public
 */
export interface FakeHerdrPending {
  /** `start`: an `agent start` waiting for its spawned process to become ready. */
  kind: 'wait' | 'prompt' | 'start';
  id: string;
  session: string;
  target: string;
  terminal_id: string;
  until: string[];
  startedAt: number;
  deadline: number | null;
  timeoutMs: number | null;
  startSeq: number;
  fromWorking: boolean;
  /** `start` only: the argv `agent_started` reports. */
  argv?: string[];
}

/**
 * What one evaluation of a fake herdr call produced.
 * @public
 */
export type FakeHerdrOutcome =
  | { type: 'exit'; stdout: string; stderr: string; exitCode: number }
  | { type: 'pending'; resume: FakeHerdrPending; wakeAt: number }
  | { type: 'hang' };

/**
 * The environment a fake herdr call sees (the variables herdr itself reads).
 * @public
 */
export interface FakeHerdrEnv {
  /** The server a call without `--session` goes to (default `default`). */
  HERDR_SESSION?: string;
  /** The caller's own pane (what `--current` means). */
  HERDR_PANE_ID?: string;
}

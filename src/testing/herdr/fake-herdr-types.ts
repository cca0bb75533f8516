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
  status: HerdrAgentStatus;
  /** Pid of the agent's foreground process (`pane process-info`). */
  pid: number;
  /** The agent process's argv. */
  argv: string[];
  /** Foreground cwd, when it differs from the pane's. */
  cwd?: string;
  agent_session?: HerdrAgentSession;
  state_change_seq: number;
  interactive_ready?: boolean;
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
  kind: 'text' | 'keys' | 'prompt' | 'run';
  value: string[];
}

/**
 * A fake pane: a shell, maybe hosting an agent.
 * @public
 */
export interface FakeHerdrPane {
  pane_id: string;
  terminal_id: string;
  tab_id: string;
  cwd: string;
  label?: string;
  shell_pid: number;
  /** What `pane read` / `agent read` print. */
  buffer: string;
  revision: number;
  input: FakeHerdrInput[];
  /** Text typed since the last Enter (what Enter submits). */
  typed?: string;
  agent: FakeHerdrAgent | null;
}

/**
 * A fake workspace (one tab per workspace unless seeded otherwise).
 * @public
 */
export interface FakeHerdrWorkspace {
  workspace_id: string;
  label: string;
  nextPane: number;
  tabs: Array<{ tab_id: string; label: string }>;
  panes: FakeHerdrPane[];
  env: Record<string, string>;
}

/**
 * One fake herdr server (a herdr session).
 * @public
 */
export interface FakeHerdrSession {
  running: boolean;
  /** Server-global `state_change_seq` counter. */
  seq: number;
  nextWorkspace: number;
  nextTerminal: number;
  focusedPane: string | null;
  workspaces: FakeHerdrWorkspace[];
}

/**
 * A scripted change applied once its time (`atMs`, epoch ms) or call count (`afterCalls`) is reached.
 * @public
 */
export interface FakeHerdrTransition {
  session: string;
  /** Agent name or pane id. */
  agent: string;
  to: FakeHerdrStep;
  atMs?: number;
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
  op: string;
  fault: FakeHerdrFault;
  session?: string;
  times: number;
}

/**
 * Everything a fake herdr knows; the executable keeps it in a JSON file, FakeHerdr in memory.
 * @public
 */
export interface FakeHerdrState {
  version: 1;
  /** Calls made so far (all sessions). */
  calls: number;
  nextPid: number;
  sessions: Record<string, FakeHerdrSession>;
  transitions: FakeHerdrTransition[];
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
  HERDR_SESSION?: string;
  HERDR_PANE_ID?: string;
}

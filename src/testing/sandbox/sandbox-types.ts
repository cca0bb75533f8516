import type { HomeDiscoveryContext } from '../../agents/types.js';
import type { AgentName } from '../../ids/agent-names.js';
import type { Ports } from '../../ports/index.js';
import type { SessionRegistry } from '../../registry/session-registry.js';
import type { FakeAgentsStopResult } from './stop-fake-agents.js';
import type { SeedOptions } from './seed-conversation.js';

/**
 * One session a sandbox starts: a row registered `running`, its fake agent live in the fake herdr.
 * @public
 */
export interface SandboxSessionSpec {
  /** The row name. */
  name: string;
  /** The agent its fake process plays. */
  agent: AgentName;
  /** Comma list, never empty on a running row. */
  role: string;
  /** The herdr server (session) its pane lives in (default `default`). */
  herdrServer?: string;
  /** The herdr workspace label (default the sanitised agent name). */
  herdrWorkspace?: string;
}

/**
 * Options of {@link buildSandbox}.
 * @public
 */
export interface SandboxOptions {
  /** Sessions to start, in this order (one at a time, as the id-order gate would have them). */
  sessions?: readonly SandboxSessionSpec[];
  /** The environment the sandbox env is derived from (default the caller's, from the process port). */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** How long one agent may take to start and report its id (ms, default 20 000). */
  startTimeoutMs?: number;
  /**
   * Stops the build between steps (before the layout, between sessions), rejecting with `signal.reason`; what it had laid
   * out is removed and every agent it started stopped first, as disposing the sandbox would.
   */
  signal?: AbortSignal;
}

/**
 * A started sandbox session: where it runs and the conversation it holds.
 * @public
 */
export interface SandboxSession {
  /** The row name. */
  name: string;
  /** The agent. */
  agent: AgentName;
  /** The row's role. */
  role: string;
  /** The name herdr knows the agent by (`sanitizeHerdrAgentName(name)`). */
  herdrName: string;
  /** The herdr server (session) its pane lives in. */
  herdrServer: string;
  /** The herdr workspace label. */
  herdrWorkspace: string;
  /** The herdr workspace id. */
  workspaceId: string;
  /** The herdr pane id. */
  paneId: string;
  /** The fake agent's pid (the pane's foreground process). */
  pid: number;
  /** Its own conversation id, as recorded on the row. */
  id: string;
}

/**
 * A laid-out sandbox: home, workspace (with `.mam/`), bin dir (fake herdr + fake agents), the env to run everything with,
 * and the sessions it started. `await using` disposes it: every fake agent stopped, what it laid out removed.
 * @public
 */
export interface Sandbox extends AsyncDisposable {
  /** The sandbox root (canonical). */
  dir: string;
  /** The HOME every agent writes under. */
  home: string;
  /** The workspace (control root) whose `.mam/` holds the registry; every session's pane cwd. */
  workspace: string;
  /** Holds `herdr` and a fake of every built-in agent; first on the env's PATH. */
  binDir: string;
  /** The env's TMPDIR. */
  tmpDir: string;
  /** A complete environment: HOME, PATH (bin dir first), TMPDIR, no agent-location, session or herdr-socket variables. */
  env: Record<string, string>;
  /** The fake herdr executable. */
  herdrBin: string;
  /** The fake herdr's JSON state file. */
  herdrStatePath: string;
  /** The fake herdr's spy log (one JSON line per call). */
  spyLogPath: string;
  /** Where running fake agents record themselves. */
  agentsRunDir: string;
  /** The workspace's registry. */
  registry: SessionRegistry;
  /** The sessions started, in order. */
  sessions: SandboxSession[];
  /** Real ports bound to the sandbox: the env above, and herdr = the fake herdr executable. */
  ports(): Ports;
  /** A discovery context for the workspace and home under the sandbox env. */
  context(overrides?: Partial<HomeDiscoveryContext>): HomeDiscoveryContext;
  /** Ends every fake agent process (SIGTERM, then SIGKILL after a grace period); says which went how. */
  stopAll(): Promise<FakeAgentsStopResult>;
  /**
   * Lays one finished conversation of `agent` down in the sandbox home exactly as the real CLI leaves it (its transcript,
   * database rows and companion files, from the recorded real layouts), without starting a process; resolves to its id.
   * Discovery offers it in its workspace, verification accepts it, a purge removes it.
   */
  seed(agent: AgentName, opts?: SeedOptions): Promise<string>;
  /** Stops every fake agent, then removes the sandbox directory (only the sandbox's own subdirectories when `dir` existed before). */
  [Symbol.asyncDispose](): Promise<void>;
}

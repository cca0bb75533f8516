import type * as NodeCrypto from 'node:crypto';
import type * as NodeFs from 'node:fs';
import type * as NodePath from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { AgentName } from '../../ids/agent-names.js';

/**
 * What the installer bakes into one fake agent executable.
 * @public
 */
export interface FakeAgentConfig {
  /** The agent this copy of the script plays. */
  agent: AgentName;
  /** The sandbox home every artifact goes under (the environment's HOME is not trusted for it). */
  home: string;
  /** Where each running fake agent keeps a record `<pid>.json` (how a harness finds and stops them all). */
  runDir: string;
  /** better-sqlite3's entry file, required by absolute path (the bin dir has no node_modules). */
  sqliteModule: string;
  /**
   * A Unix socket the agent connects to when it starts and whose end ends it (a clean exit): its owner's lifeline. The
   * kernel closes the owner's end when the owner's process ends, however it ends, so the agent never outlives it.
   */
  lifeline?: string;
}

/**
 * The effects the fake agent's parts are handed (they reach nothing else), so their text stays self-contained.
 * @public
 */
export interface FakeAgentMods {
  fs: typeof NodeFs;
  path: typeof NodePath;
  crypto: typeof NodeCrypto;
  /** better-sqlite3's constructor, loaded on first use. */
  database(): typeof BetterSqlite3;
  env: Readonly<Record<string, string | undefined>>;
  now(): number;
  pid: number;
  /** The process's cwd, as the kernel reports it (links resolved). */
  cwd: string;
}

/**
 * The parsed command line of a fake agent.
 * @public
 */
export interface FakeAgentArgs {
  version: boolean;
  /** `--session-id <id>`: a pre-assigned id. */
  sessionId: string | null;
  /** `--resume <id>`, `-r <id>`, `--session <id>`, `--conversation <id>`, `codex resume <id>`. */
  resume: string | null;
  /** Operands that are not option values (subcommands). */
  positional: string[];
}

/**
 * One run of a fake agent: who it plays, where, with what.
 * @public
 */
export interface FakeAgentRun {
  config: FakeAgentConfig;
  mods: FakeAgentMods;
  args: FakeAgentArgs;
}

/**
 * A conversation a fake agent started or resumed: its id, and what its clean exit does.
 * @public
 */
export interface FakeAgentStarted {
  id: string;
  /** Runs on a clean exit (SIGTERM, SIGINT, SIGHUP, `/exit` on stdin): releases what the real CLI releases. */
  cleanup(): void;
}

/**
 * How a fake agent part refuses to run: thrown, caught by the script's shell, which prints `message` and exits with `code`.
 * @public
 */
export interface FakeAgentExit {
  fakeAgentExit: number;
  message: string;
}

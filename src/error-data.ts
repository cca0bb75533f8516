import type { RegistryIssueData } from './registry/registry-issue.js';

/**
 * Why a registry name is not the registry's own file: a symbolic link (`symlink`; for `.mam/` itself too), a file with
 * other hard links (`hard-link`), a directory or a FIFO, socket or device where a file belongs (`directory`,
 * `not-regular`), a file where `.mam/` belongs (`not-a-directory`), a SQLite database whose schema is not the mirror's
 * (`foreign-database`), a file that was swapped while it was being opened (`moved`), or a look that failed (`unchecked`).
 * @public
 */
export type RegistryFileProblem = 'symlink' | 'hard-link' | 'directory' | 'not-regular' | 'not-a-directory' | 'foreign-database' | 'moved' | 'unchecked';

/**
 * The details of a `RegistryFileRefusedError`.
 * @public
 */
export interface RegistryFileRefusedData {
  /** The path refused (`.mam/` itself, the YAML, the mirror or a sidecar, the lock). */
  path: string;
  /** Why. */
  problem: RegistryFileProblem;
}

/**
 * The details of a `LockTimeoutError`.
 * @public
 */
export type LockTimeoutData = {
  /** The lock file's path. */
  lockPath: string;
  /** How long was waited, in ms. */
  waitedMs: number;
  /** Who holds the lock, when known. */
  owner?: string;
};

/**
 * The details of a `PortError`: the port operation and what it was about.
 * @public
 */
export interface PortErrorData {
  /** The port operation that failed, e.g. `fs.rm` or `proc.run`. */
  op: string;
  /** The path, when there is one. */
  path?: string;
  /** The command line, when there is one. */
  command?: string;
  /** The command's exit code, when it ran. */
  exitCode?: number;
  /** The command's standard error, when it ran. */
  stderr?: string;
  /** The Node errno code (`ENOENT`, …), when there is one. */
  errno?: string;
}

/** Data whose keys the throwing call chooses (argument errors name what they check). */
type FreeData = Record<string, unknown>;

/**
 * The `data` of a fault by its code (every code but the {@link PortErrorData} ones); `isMamError(err, code)` narrows
 * `err.data` to the entry of `code`.
 * @public
 */
export interface FaultDataMap {
  UNKNOWN_AGENT: { agent: string };
  INVALID_ID: { agent: string; id: string };
  INVALID_ARGUMENT: { param: string; problem: string };
  AUTOPIN_INVALID_ARGUMENT: FreeData;
  DISPATCH_INVALID: FreeData;
  DISPATCH_NOT_FOUND: { jobId: string; path: string };
  HERDR_INVALID_ARGUMENT: { op: string } & FreeData;
  ID_ORDER_INVALID_REQUEST: { session: unknown; herdrServer: unknown };
  JOB_AUDIT_FAILED: { jobId: string; path: string; committed: true };
  JOB_INVALID_ARGUMENT: FreeData;
  JOB_NOT_FOUND: { jobId: string; path: string };
  JOB_RECORD_CORRUPT: { path: string; problem: string };
  LIFECYCLE_HOME_UNKNOWN: FreeData;
  LIFECYCLE_STEP_FAILED: { step: string; session: string; herdrCode?: string };
  LOCK_TIMEOUT: LockTimeoutData;
  LOOP_INVALID_ARGUMENT: FreeData;
  ORCHESTRATORS_HOME_UNKNOWN: FreeData;
  REGISTRY_CORRUPT: RegistryIssueData;
  REGISTRY_FILE_REFUSED: RegistryFileRefusedData;
  REGISTRY_ID_CLAIMED: { row: string; agent: string; id: string; claimedBy: string };
  REGISTRY_INVALID_UPDATE: RegistryIssueData;
  REGISTRY_MIRROR_FAILED: { path: string; yamlWritten: boolean };
  REGISTRY_REENTRANT_UPDATE: { path: string };
  REGISTRY_ROW_NOT_FOUND: { row: string };
  RESET_SPEC_INVALID: { path: string; problem: string };
  SQLITE_BINDING_MISSING: { detail: string };
  SQLITE_READ_FAILED: { path: string; state: string; sqliteCode?: string };
  WATCH_INVALID_ARGUMENT: FreeData;
  FAKE_AGENTS_HOME_NOT_ABSOLUTE: FreeData;
  FAKE_AGENTS_NOT_EMBEDDABLE: FreeData;
  FAKE_HERDR_NAME_TAKEN: { name: string };
  FAKE_HERDR_NOT_EMBEDDABLE: FreeData;
  FAKE_HERDR_NOT_FOUND: { target: string; session: string };
  SANDBOX_INVALID_OPTIONS: FreeData;
  SANDBOX_DIR_NOT_EMPTY: FreeData;
  SANDBOX_SESSION_FAILED: FreeData;
}

/**
 * What is wrong with a registry file or an updated registry state.
 * - `empty`: the file has no content; `yaml`: it is not valid YAML; `not-a-mapping`: its top level is not a mapping;
 * - `not-a-list`: `herdr_sessions` or `orchestrator_uuids` is not a list; `row-not-a-mapping`: a row is not a mapping;
 * - `invalid-field`: a row field has the wrong type or value; `unknown-agent`: a row's `agent` is not a canonical name;
 * - `duplicate-name`: two rows share a name; `unsupported-value`: a value YAML cannot hold (a Date, a function, …);
 * - `not-a-file`: the registry path is not a regular file (a FIFO, socket, device or directory: never opened for reading).
 * @public
 */
export type RegistryProblem =
  | 'empty'
  | 'yaml'
  | 'not-a-mapping'
  | 'not-a-list'
  | 'row-not-a-mapping'
  | 'invalid-field'
  | 'unknown-agent'
  | 'duplicate-name'
  | 'unsupported-value'
  | 'not-a-file';

/**
 * One problem found in a registry, naming the row (by name, else `#<index>`) and the field where there is one.
 * @public
 */
export interface RegistryIssue {
  /** What kind of problem it is. */
  problem: RegistryProblem;
  /** A sentence for a person, naming the row and field. */
  message: string;
  /** The row's name, or `#<index>` for a row without a usable name. */
  row?: string;
  /** The row's index in `herdr_sessions`. */
  index?: number;
  /** The field, dotted for nested ones (`pane.cwd`); a top-level key for file-level problems. */
  field?: string;
  /** Line and column in the file, for YAML syntax errors. */
  line?: number;
  /** The column of `line`, for YAML syntax errors. */
  column?: number;
}

/**
 * Structured details of a registry error.
 * @public
 */
export type RegistryIssueData = {
  /** The registry file. */
  path: string;
  /** The first issue's problem. */
  problem: RegistryProblem;
  /** The first issue's row, when it is about a row. */
  row?: string;
  /** The first issue's field, when it is about a field. */
  field?: string;
  /** Every issue found, in file order. */
  issues: RegistryIssue[];
};

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

/**
 * The `data` of a fault by its code (every code but the {@link PortErrorData} ones); `isMamError(err, code)` narrows
 * `err.data` to the entry of `code`.
 * @public
 */
export interface FaultDataMap {
  /** The `data` of the code `UNKNOWN_AGENT`. */
  UNKNOWN_AGENT: { agent: string };
  /** The `data` of the code `INVALID_ID`. */
  INVALID_ID: { agent: string; id: string };
  /** The `data` of the code `INVALID_ARGUMENT`. */
  INVALID_ARGUMENT: { param: string; problem: string };
  /** The `data` of the code `AUTOPIN_INVALID_ARGUMENT`. */
  AUTOPIN_INVALID_ARGUMENT: Record<string, unknown>;
  /** The `data` of the code `DISPATCH_INVALID`. */
  DISPATCH_INVALID: Record<string, unknown>;
  /** The `data` of the code `DISPATCH_NOT_FOUND`. */
  DISPATCH_NOT_FOUND: { jobId: string; path: string };
  /** The `data` of the code `HERDR_INVALID_ARGUMENT`. */
  HERDR_INVALID_ARGUMENT: { op: string } & Record<string, unknown>;
  /** The `data` of the code `ID_ORDER_INVALID_REQUEST`. */
  ID_ORDER_INVALID_REQUEST: { session: unknown; herdrServer: unknown };
  /** The `data` of the code `JOB_AUDIT_FAILED`. */
  JOB_AUDIT_FAILED: { jobId: string; path: string; committed: true };
  /** The `data` of the code `JOB_INVALID_ARGUMENT`. */
  JOB_INVALID_ARGUMENT: Record<string, unknown>;
  /** The `data` of the code `JOB_NOT_FOUND`. */
  JOB_NOT_FOUND: { jobId: string; path: string };
  /** The `data` of the code `JOB_RECORD_CORRUPT`. */
  JOB_RECORD_CORRUPT: { path: string; problem: string };
  /** The `data` of the code `LIFECYCLE_HOME_UNKNOWN`. */
  LIFECYCLE_HOME_UNKNOWN: Record<string, unknown>;
  /** The `data` of the code `LIFECYCLE_STEP_FAILED`. */
  LIFECYCLE_STEP_FAILED: { step: string; session: string; herdrCode?: string };
  /** The `data` of the code `LOCK_TIMEOUT`. */
  LOCK_TIMEOUT: LockTimeoutData;
  /** The `data` of the code `LOOP_INVALID_ARGUMENT`. */
  LOOP_INVALID_ARGUMENT: Record<string, unknown>;
  /** The `data` of the code `ORCHESTRATORS_HOME_UNKNOWN`. */
  ORCHESTRATORS_HOME_UNKNOWN: Record<string, unknown>;
  /** The `data` of the code `REGISTRY_CORRUPT`. */
  REGISTRY_CORRUPT: RegistryIssueData;
  /** The `data` of the code `REGISTRY_FILE_REFUSED`. */
  REGISTRY_FILE_REFUSED: RegistryFileRefusedData;
  /** The `data` of the code `REGISTRY_ID_CLAIMED`. */
  REGISTRY_ID_CLAIMED: { row: string; agent: string; id: string; claimedBy: string };
  /** The `data` of the code `REGISTRY_INVALID_UPDATE`. */
  REGISTRY_INVALID_UPDATE: RegistryIssueData;
  /** The `data` of the code `REGISTRY_MIRROR_FAILED`. */
  REGISTRY_MIRROR_FAILED: { path: string; yamlWritten: boolean };
  /** The `data` of the code `REGISTRY_REENTRANT_UPDATE`. */
  REGISTRY_REENTRANT_UPDATE: { path: string };
  /** The `data` of the code `REGISTRY_ROW_NOT_FOUND`. */
  REGISTRY_ROW_NOT_FOUND: { row: string };
  /** The `data` of the code `RESET_SPEC_INVALID`. */
  RESET_SPEC_INVALID: { path: string; problem: string };
  /** The `data` of the code `SQLITE_BINDING_MISSING`. */
  SQLITE_BINDING_MISSING: { detail: string };
  /** The `data` of the code `SQLITE_READ_FAILED`. */
  SQLITE_READ_FAILED: { path: string; state: string; sqliteCode?: string };
  /** The `data` of the code `WATCH_INVALID_ARGUMENT`. */
  WATCH_INVALID_ARGUMENT: Record<string, unknown>;
  /** The `data` of the code `FAKE_AGENTS_HOME_NOT_ABSOLUTE`. */
  FAKE_AGENTS_HOME_NOT_ABSOLUTE: Record<string, unknown>;
  /** The `data` of the code `FAKE_AGENTS_NOT_EMBEDDABLE`. */
  FAKE_AGENTS_NOT_EMBEDDABLE: Record<string, unknown>;
  /** The `data` of the code `FAKE_HERDR_NAME_TAKEN`. */
  FAKE_HERDR_NAME_TAKEN: { name: string };
  /** The `data` of the code `FAKE_HERDR_NOT_EMBEDDABLE`. */
  FAKE_HERDR_NOT_EMBEDDABLE: Record<string, unknown>;
  /** The `data` of the code `FAKE_HERDR_NOT_FOUND`. */
  FAKE_HERDR_NOT_FOUND: { target: string; session: string };
  /** The `data` of the code `SANDBOX_INVALID_OPTIONS`. */
  SANDBOX_INVALID_OPTIONS: Record<string, unknown>;
  /** The `data` of the code `SANDBOX_DIR_NOT_EMPTY`. */
  SANDBOX_DIR_NOT_EMPTY: Record<string, unknown>;
  /** The `data` of the code `SANDBOX_SESSION_FAILED`. */
  SANDBOX_SESSION_FAILED: Record<string, unknown>;
}

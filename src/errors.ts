import type { FaultDataMap, PortErrorData } from './error-data.js';

/**
 * The closed set of codes a port failure is mapped onto.
 * @public
 */
export type PortErrorCode =
  | 'NotFound'
  | 'AlreadyExists'
  | 'PermissionDenied'
  | 'Busy'
  | 'NotADirectory'
  | 'IsADirectory'
  | 'NotEmpty'
  | 'NoSpace'
  | 'IoError'
  | 'InvalidArgument'
  | 'CommandFailed'
  | 'CommandNotFound'
  | 'Timeout'
  | 'NotRegularFile'
  | 'Changed'
  | 'Linked'
  | 'Unknown';

/**
 * Every `code` a {@link MamError} of this package can carry: the {@link PortErrorCode}s and one literal per fault class
 * (each class's `code` is typed as its own literal, so `switch (err.code)` narrows).
 * @public
 */
export type MamErrorCode =
  | PortErrorCode
  | 'UNKNOWN_AGENT'
  | 'INVALID_ID'
  | 'INVALID_ARGUMENT'
  | 'AUTOPIN_INVALID_ARGUMENT'
  | 'DISPATCH_INVALID'
  | 'DISPATCH_NOT_FOUND'
  | 'HERDR_INVALID_ARGUMENT'
  | 'ID_ORDER_INVALID_REQUEST'
  | 'JOB_AUDIT_FAILED'
  | 'JOB_INVALID_ARGUMENT'
  | 'JOB_NOT_FOUND'
  | 'JOB_RECORD_CORRUPT'
  | 'LIFECYCLE_HOME_UNKNOWN'
  | 'LIFECYCLE_STEP_FAILED'
  | 'LOCK_TIMEOUT'
  | 'LOOP_INVALID_ARGUMENT'
  | 'ORCHESTRATORS_HOME_UNKNOWN'
  | 'REGISTRY_CORRUPT'
  | 'REGISTRY_FILE_REFUSED'
  | 'REGISTRY_ID_CLAIMED'
  | 'REGISTRY_INVALID_UPDATE'
  | 'REGISTRY_MIRROR_FAILED'
  | 'REGISTRY_REENTRANT_UPDATE'
  | 'REGISTRY_ROW_NOT_FOUND'
  | 'RESET_SPEC_INVALID'
  | 'SQLITE_BINDING_MISSING'
  | 'SQLITE_READ_FAILED'
  | 'WATCH_INVALID_ARGUMENT'
  | 'FAKE_AGENTS_HOME_NOT_ABSOLUTE'
  | 'FAKE_AGENTS_NOT_EMBEDDABLE'
  | 'FAKE_HERDR_NAME_TAKEN'
  | 'FAKE_HERDR_NOT_EMBEDDABLE'
  | 'FAKE_HERDR_NOT_FOUND'
  | 'SANDBOX_INVALID_OPTIONS'
  | 'SANDBOX_DIR_NOT_EMPTY'
  | 'SANDBOX_SESSION_FAILED';

/**
 * The `data` of a {@link MamError} by its code: {@link PortErrorData} for a {@link PortErrorCode}, else the code's entry
 * of {@link FaultDataMap}. `isMamError(err, code)` narrows `err.data` to it.
 * @public
 */
export type MamErrorDataMap = FaultDataMap & { [K in PortErrorCode]: PortErrorData };

/**
 * A {@link MamError} whose `code` is `C` and whose `data` is that code's ({@link MamErrorDataMap}).
 * @public
 */
export type MamErrorOf<C extends MamErrorCode> = Omit<MamError, 'code' | 'data'> & { readonly code: C; readonly data: Readonly<MamErrorDataMap[C]> };

// A registry-wide symbol, so an error made by another copy of this package (a second install, a bundled copy) carries
// the same brand and `isMamError` recognises it where `instanceof` cannot.
const MAM_ERROR_BRAND: unique symbol = Symbol.for('@mam/core/MamError');

/**
 * Base class of every fault the library throws: a stable `code`, structured `data` and an optional `cause`.
 * @public
 */
export class MamError extends Error {
  /** Stable machine-readable code, one of {@link MamErrorCode}. */
  readonly code: MamErrorCode;
  /** Structured details (paths, commands, row names). */
  readonly data: Readonly<Record<string, unknown>>;

  /** Builds a fault with its `code`, human `message`, structured `data` and optional `cause`. */
  constructor(code: MamErrorCode, message: string, data: Record<string, unknown> = {}, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.data = data;
    Object.defineProperty(this, MAM_ERROR_BRAND, { value: true, enumerable: false });
  }
}

/**
 * True when `err` is a {@link MamError} of any copy of this package (ESM or CommonJS, another install): it checks a
 * registry-wide brand and the shape (`code`, `data`, `message`), not the class identity `instanceof` depends on. Given a
 * `code`, true only for that code, and `err.data` is narrowed to that code's data ({@link MamErrorDataMap}).
 * @example
 * ```ts
 * try { getAdapter('nope'); } catch (err) { if (isMamError(err)) report(err.code); } // 'UNKNOWN_AGENT'
 * try { pinRow(draft, 'rev', id); } catch (err) { if (isMamError(err, 'REGISTRY_ID_CLAIMED')) report(err.data.claimedBy); }
 * ```
 * @public
 */
export function isMamError(err: unknown): err is MamError;
/**
 * True when `err` is a {@link MamError} (of any copy of this package) whose code is `code`; `err.data` is then that
 * code's data ({@link MamErrorDataMap}).
 * @example
 * ```ts
 * if (isMamError(err, 'INVALID_ARGUMENT')) report(err.data.param);
 * ```
 * @public
 */
export function isMamError<C extends MamErrorCode>(err: unknown, code: C): err is MamErrorOf<C>;
export function isMamError(err: unknown, code?: MamErrorCode): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const e = err as { [MAM_ERROR_BRAND]?: unknown; code?: unknown; data?: unknown; message?: unknown };
  const shaped = e[MAM_ERROR_BRAND] === true && typeof e.code === 'string' && typeof e.message === 'string' && typeof e.data === 'object' && e.data !== null;
  return shaped && (code === undefined || e.code === code);
}

/**
 * A port operation failed; `code` is one of {@link PortErrorCode}, `data` names the path or command.
 * @public
 */
export class PortError extends MamError {
  /** One of {@link PortErrorCode}. */
  declare readonly code: PortErrorCode;
  /** The port operation that failed, e.g. `fs.rm` or `proc.run`. */
  readonly op: string;
  /** The path the operation was about, when there is one. */
  readonly path: string | undefined;
  /** The command line the operation ran, when there is one. */
  readonly command: string | undefined;

  /** Builds a port failure; `details` (path, command, exit code, stderr, errno) and `op` become `data`. */
  constructor(
    code: PortErrorCode,
    op: string,
    message: string,
    details: { path?: string; command?: string; exitCode?: number; stderr?: string; errno?: string } = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, { op, ...details }, options);
    this.op = op;
    this.path = details.path;
    this.command = details.command;
  }
}

/**
 * An agent name that is not one of the built-in agents' canonical names (nor of the outside agents a call was given).
 * @public
 */
export class UnknownAgentError extends MamError {
  /** Always `UNKNOWN_AGENT`. */
  declare readonly code: 'UNKNOWN_AGENT';

  /**
   * Builds the fault for `name`; code `UNKNOWN_AGENT`, `data.agent` is the name given. `expected` lists the names that
   * were known (every caller in the library passes the built-in names, and a service given outside agents names them too; without it the message says a built-in agent's name was expected).
   */
  constructor(name: string, expected?: readonly string[]) {
    const known = expected === undefined ? "a built-in agent's name" : `one of ${expected.join(', ')}`;
    super('UNKNOWN_AGENT', `unknown agent: ${JSON.stringify(name)} (expected ${known})`, { agent: name });
  }
}

/**
 * An id that is not a plausible id for the agent it was given for.
 * @public
 */
export class InvalidIdError extends MamError {
  /** Always `INVALID_ID`. */
  declare readonly code: 'INVALID_ID';

  /** Builds the fault for `id` of `agent`; code `INVALID_ID`, `data` holds both. */
  constructor(agent: string, id: string) {
    super('INVALID_ID', `not a plausible ${agent} conversation id: ${JSON.stringify(id)}`, { agent, id });
  }
}

const ERRNO_CODES: Readonly<Record<string, PortErrorCode>> = {
  ENOENT: 'NotFound',
  EEXIST: 'AlreadyExists',
  EACCES: 'PermissionDenied',
  EPERM: 'PermissionDenied',
  EROFS: 'PermissionDenied',
  EBUSY: 'Busy',
  ETXTBSY: 'Busy',
  EAGAIN: 'Busy',
  ENOTDIR: 'NotADirectory',
  EISDIR: 'IsADirectory',
  ENOTEMPTY: 'NotEmpty',
  ENOSPC: 'NoSpace',
  EDQUOT: 'NoSpace',
  EIO: 'IoError',
  EINVAL: 'InvalidArgument',
  ELOOP: 'InvalidArgument',
  ENAMETOOLONG: 'InvalidArgument',
  ETIMEDOUT: 'Timeout',
};

/**
 * Maps a Node errno code (`ENOENT`, `EACCES`, …) onto a {@link PortErrorCode}.
 * @public
 */
export function portCodeOfErrno(errno: string | undefined): PortErrorCode {
  return (errno !== undefined && ERRNO_CODES[errno]) || 'Unknown';
}

/**
 * Wraps any thrown value from a filesystem call as a {@link PortError}; a PortError passes through unchanged.
 * @public
 */
export function toPortError(err: unknown, op: string, path?: string): PortError {
  if (err instanceof PortError) return err;
  const errno = typeof err === 'object' && err !== null && 'code' in err ? describeError((err as { code: unknown }).code) : undefined;
  const message = describeError(err);
  return new PortError(portCodeOfErrno(errno), op, message, { ...(path === undefined ? {} : { path }), ...(errno === undefined ? {} : { errno }) }, { cause: err });
}

/**
 * True when `err` is a {@link PortError} with the given code.
 * @public
 */
export function isPortError(err: unknown, code?: PortErrorCode): err is PortError {
  return err instanceof PortError && (code === undefined || err.code === code);
}

/**
 * A one-line description of any thrown value that never throws itself: an Error's message, a string as is, an object's
 * string `message`, else `String(value)` — and for a value that cannot be made a string (a null-prototype object, a
 * revoked proxy, a throwing `toString`) a plain tag such as `[object]`.
 * @example
 * ```ts
 * describeError(new Error('boom'));        // 'boom'
 * describeError(Object.create(null));      // '[object]' where String() would throw
 * ```
 * @public
 */
export function describeError(err: unknown): string {
  try {
    if (err instanceof Error && typeof err.message === 'string') return err.message;
    if (typeof err === 'string') return err;
    if (typeof err === 'object' && err !== null) {
      const message: unknown = (err as { message?: unknown }).message;
      if (typeof message === 'string') return message;
    }
    return String(err);
  } catch {
    return err === null ? 'null' : `[${typeof err}]`;
  }
}

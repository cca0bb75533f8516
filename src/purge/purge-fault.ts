import { describeError } from '../errors.js';
import type { Artifact, LeftArtifact } from './artifact.js';

/**
 * What kept a purge (or a look at a store) from doing its work: `unreadable-store` (a damaged header, not a database,
 * corrupt), `read-only` (a read-only filesystem or database: EROFS, SQLITE_READONLY), `missing-binding`
 * (better-sqlite3's native binding cannot load), `no-space` (ENOSPC, a full disk), `io-error` (EIO, a disk I/O error).
 * @public
 */
export type PurgeFaultCause = 'unreadable-store' | 'read-only' | 'missing-binding' | 'no-space' | 'io-error';

/**
 * One fault a purge met, typed by its cause: where (`path`, the artifact it kept, or null), what was seen (`detail`), and
 * what a person can do about it (`advice`).
 * @public
 */
export interface PurgeFault {
  /** The cause. */
  cause: PurgeFaultCause;
  /** The artifact's path (the database for rows), or null when the fault names no path. */
  path: string | null;
  /** What was seen (the reason of the artifact left, or the error's message). */
  detail: string;
  /** What a person can do, one sentence. */
  advice: string;
}

const ADVICE: Readonly<Record<PurgeFaultCause, string>> = {
  'unreadable-store': 'the database cannot be read (a damaged header, not a database, corrupt): repair or restore it, then purge again',
  'read-only': 'the filesystem or database is read-only: make it writable (remount, permissions), then purge again',
  'missing-binding': "better-sqlite3's native binding cannot load: rebuild it (npm rebuild better-sqlite3) or reinstall with install scripts allowed, then purge again",
  'no-space': 'the disk is full: free space, then purge again',
  'io-error': 'the disk gave an I/O error: check the device, then purge again',
};

/**
 * What a person can do about a fault of this cause, one sentence.
 * @public
 */
export function faultAdvice(cause: PurgeFaultCause): string {
  return ADVICE[cause];
}

// Most specific first: a binding message may say "cannot open", an unreadable one never says "read-only".
const PATTERNS: ReadonlyArray<[PurgeFaultCause, RegExp]> = [
  ['missing-binding', /SQLITE_BINDING_MISSING|native binding|bindings file|better_sqlite3\.node|NODE_MODULE_VERSION/i],
  ['read-only', /EROFS|read-only file ?system|readonly database|SQLITE_READONLY/i],
  ['no-space', /ENOSPC|EDQUOT|no space left|SQLITE_FULL|database or disk is full|quota exceeded/i],
  ['io-error', /\bEIO\b|i\/o error|SQLITE_IOERR/i],
  ['unreadable-store', /not a database|SQLITE_NOTADB|SQLITE_CORRUPT|malformed|damaged header/i],
];

/**
 * The cause a reason or message names, or null when it names none of {@link PurgeFaultCause}.
 * @public
 */
export function faultCauseOfText(text: string): PurgeFaultCause | null {
  for (const [cause, re] of PATTERNS) if (re.test(text)) return cause;
  return null;
}

function codesOf(err: unknown): string[] {
  const out: string[] = [];
  let e: unknown = err;
  for (let depth = 0; depth < 8 && typeof e === 'object' && e !== null; depth += 1) {
    const o = e as { code?: unknown; errno?: unknown; data?: { errno?: unknown; sqliteCode?: unknown }; cause?: unknown };
    for (const c of [o.code, o.data?.errno, o.data?.sqliteCode]) if (typeof c === 'string') out.push(c);
    e = o.cause;
  }
  return out;
}

/**
 * The cause a thrown value names — by its codes (its own, its `data`'s errno or SQLite code, its causes'), else by its
 * message — or null.
 * @public
 */
export function faultCauseOf(err: unknown): PurgeFaultCause | null {
  const byCode = faultCauseOfText(codesOf(err).join(' '));
  return byCode ?? faultCauseOfText(describeError(err));
}

/**
 * The typed faults behind artifacts left with a reason (one per artifact whose reason names a cause), in order.
 * @public
 */
export function faultsOfLeft(left: readonly (Artifact | LeftArtifact)[]): PurgeFault[] {
  const out: PurgeFault[] = [];
  for (const a of left) {
    if (!('reason' in a) || typeof a.reason !== 'string') continue;
    const cause = faultCauseOfText(a.reason);
    if (cause !== null) out.push({ cause, path: a.kind === 'rows' ? a.db : a.path, detail: a.reason, advice: ADVICE[cause] });
  }
  return out;
}

/**
 * The fault of one thrown value at `path`, or null when it names no cause.
 * @public
 */
export function faultOf(err: unknown, path: string | null): PurgeFault | null {
  const cause = faultCauseOf(err);
  return cause === null ? null : { cause, path, detail: describeError(err), advice: ADVICE[cause] };
}

/**
 * The faults once each (same cause and path), the first seen kept.
 * @public
 */
export function uniqueFaults(faults: readonly PurgeFault[]): PurgeFault[] {
  const seen = new Set<string>();
  return faults.filter((f) => {
    const key = `${f.cause}\0${f.path ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

import type { ProcessInfo } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';

/**
 * Whether a session file's process is alive and is still the process that wrote it: `live` (with the evidence) or `stale`.
 * @public
 */
export type SessionLiveness =
  | { kind: 'live'; pid: number; proc: ProcessInfo; by: 'proc-start' | 'started-at' | 'cannot-tell' }
  | { kind: 'stale'; reason: 'dead' | 'reused' };

/** What the liveness rule needs of a session file. */
interface SessionClaims {
  pids: readonly number[];
  procStart: unknown;
  startedAt: unknown;
}

// The CLI writes startedAt after its own start-up, so it may trail the kernel's start (ps has 1 s resolution) by seconds;
// a generous late window only ever errs towards "live", which refuses a purge.
const EARLY_MS = 2_000;
const LATE_MS = 10_000;
// Below this an epoch-ms value is 1973 or earlier: not a start time Claude wrote, so it cannot tell a reused pid.
const PLAUSIBLE_MS = 1e11;
const DAY_MS = 86_400_000;

function ticks(value: unknown): number | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^[0-9]{1,15}$/.test(value.trim())) return Number(value.trim());
  return null;
}

// A startedAt that is not a finite, positive, plausible epoch-ms number (a bool, a string, NaN, 0, a negative, an integer
// too large to hold exactly, a time after now) cannot tell a reused pid: null, which counts as live.
function startedAtMs(value: unknown, nowMs: number): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (value < PLAUSIBLE_MS || value > Number.MAX_SAFE_INTEGER || value > nowMs + DAY_MS) return null;
  return value;
}

function judge(claims: SessionClaims, pid: number, proc: ProcessInfo, nowMs: number): SessionLiveness {
  const t = ticks(claims.procStart);
  if (t !== null && proc.startTicks !== undefined) {
    return t === proc.startTicks ? { kind: 'live', pid, proc, by: 'proc-start' } : { kind: 'stale', reason: 'reused' };
  }
  const at = startedAtMs(claims.startedAt, nowMs);
  if (at === null || proc.startedAtMs === null) return { kind: 'live', pid, proc, by: 'cannot-tell' };
  const lag = at - proc.startedAtMs;
  return lag >= -EARLY_MS && lag <= LATE_MS ? { kind: 'live', pid, proc, by: 'started-at' } : { kind: 'stale', reason: 'reused' };
}

/**
 * Decides a session file against one process snapshot: a dead pid is stale whatever the file says; an alive pid is the same
 * process when `procStart` equals its start ticks (the precise guard where /proc exists), else when `startedAt` (epoch ms)
 * matches its start; a value that cannot be told counts as live.
 * @public
 */
export function sessionLiveness(claims: SessionClaims, byPid: ReadonlyMap<number, ProcessInfo>, nowMs: number): SessionLiveness {
  let stale: SessionLiveness = { kind: 'stale', reason: 'dead' };
  for (const pid of claims.pids) {
    const proc = byPid.get(pid);
    // A zombie (exited, its parent never reaped it) runs no conversation: as dead as a missing pid.
    if (proc === undefined || !isLiveProcess(proc)) continue;
    const verdict = judge(claims, pid, proc, nowMs);
    if (verdict.kind === 'live') return verdict;
    stale = verdict;
  }
  return stale;
}

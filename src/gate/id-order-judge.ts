import type { Clock } from '../ports/clock.js';
import type { HerdrPort, HerdrPresence } from '../ports/herdr.js';
import type { ProcessInfo, ProcessPort } from '../ports/process.js';
import type { RegistryState } from '../registry/registry-state.js';
import type { IdOrderMarker } from './id-order-marker.js';
import { isLiveProcess } from '../ports/process-live.js';

/**
 * What the gate decided about one marker. `own-leftover`, `registered` and `gone` remove it; the others keep it and block:
 * - `own-leftover`: written by this very process (same pid and start) for an attempt that is no longer in progress;
 * - `registered`: its owner is dead, but its row is registered for the attempt (`running`, epoch at or after it);
 * - `gone`: its owner is dead and a parsed `agent list` of its herdr server does not name the session;
 * - `owner-alive`: the creating process is still running (a create of this process included);
 * - `orphan-alive`: its owner is dead, its row is not registered, and herdr lists the session;
 * - `orphan-unknown`: its owner is dead, its row is not registered, and herdr gave no definite answer (`no-time`: no
 *   time was left to ask, e.g. `MAM_ID_ORDER_WAIT_S=0`).
 * @public
 */
export type IdOrderVerdict =
  | { kind: 'own-leftover' }
  | { kind: 'registered' }
  | { kind: 'gone' }
  | { kind: 'owner-alive'; inProcess: boolean }
  | { kind: 'orphan-alive' }
  | { kind: 'orphan-unknown'; why: 'no-time' | 'server_not_running' | 'unknown' };

/**
 * What judging needs: the caller's identity, the live attempts of this process, the registry, herdr and the time left.
 * @public
 */
export interface IdOrderJudgeContext {
  /** Looks up a marker's owner by pid and start. */
  proc: ProcessPort;
  /** Asks whether a dead owner's session is still listed. */
  herdr: HerdrPort;
  /** Bounds each herdr probe by the time left. */
  clock: Clock;
  /**
   * The calling process (start null when it could not be looked up): its own markers are leftovers or live attempts.
   */
  self: ProcessInfo | { pid: number; startedAtMs: null };
  /** Tokens of this process's attempts that hold the gate now (see {@link liveIdOrderTokens}). */
  liveTokens: ReadonlySet<string>;
  /** The registry now, or null when it could not be read (then only herdr can prune an orphan). */
  registry: RegistryState | null;
  /** Milliseconds left until the wait's deadline. */
  timeLeftMs: () => number;
}

// A pid alone can be reused: the start recorded in the marker must match the process that has the pid now.
function sameProcess(info: ProcessInfo | Pick<ProcessInfo, 'pid' | 'startedAtMs' | 'startTicks'>, marker: IdOrderMarker): boolean {
  if (info.pid !== marker.owner_pid) return false;
  if (marker.owner_start_ticks !== null && info.startTicks !== undefined) return info.startTicks === marker.owner_start_ticks;
  if (marker.owner_started_at_ms !== null && info.startedAtMs !== null) return Math.abs(info.startedAtMs - marker.owner_started_at_ms) <= 2_000;
  return true;
}

function registeredFor(registry: RegistryState | null, marker: IdOrderMarker): boolean {
  const row = registry?.herdr_sessions.find((r) => r.name === marker.session);
  const epoch = row?.herdr_session_epoch;
  return row?.status === 'running' && typeof epoch === 'number' && epoch >= marker.attempt;
}

// Asks herdr with only the time left, and stops waiting at the deadline even if the port does not honour it.
async function boundedPresence(ctx: IdOrderJudgeContext, marker: IdOrderMarker, leftMs: number): Promise<HerdrPresence> {
  const stop = new AbortController();
  const late = ctx.clock.sleep(leftMs, stop.signal).then(
    (): HerdrPresence => 'unknown',
    (): HerdrPresence => 'unknown',
  );
  try {
    const asked = ctx.herdr.agentPresence(marker.herdr_name, { session: marker.herdr_server, deadlineMs: leftMs }).catch((): HerdrPresence => 'unknown');
    return await Promise.race([asked, late]);
  } finally {
    stop.abort();
  }
}

/**
 * Judges one marker: the owner first, then (for a dead owner) the row, then herdr — an unanswered probe counts as alive.
 * @public
 */
export async function judgeIdOrderMarker(marker: IdOrderMarker, ctx: IdOrderJudgeContext): Promise<IdOrderVerdict> {
  if (sameProcess(ctx.self, marker)) {
    return ctx.liveTokens.has(marker.token) ? { kind: 'owner-alive', inProcess: true } : { kind: 'own-leftover' };
  }
  const owner = await ctx.proc.lookup(marker.owner_pid).catch(() => undefined);
  // A lookup that fails says nothing: the owner may be alive. A process without an argv (a zombie nobody reaps, or a
  // kernel thread that took the pid) is no create running any more.
  const running = owner !== null && owner !== undefined && isLiveProcess(owner) && !(owner.argv === undefined && owner.command.startsWith('['));
  if (owner === undefined || (running && sameProcess(owner, marker))) return { kind: 'owner-alive', inProcess: false };
  if (registeredFor(ctx.registry, marker)) return { kind: 'registered' };
  const leftMs = Math.floor(ctx.timeLeftMs());
  if (leftMs <= 0) return { kind: 'orphan-unknown', why: 'no-time' };
  const presence = await boundedPresence(ctx, marker, leftMs);
  switch (presence) {
    case 'present':
      return { kind: 'orphan-alive' };
    case 'absent':
      return { kind: 'gone' };
    // Seed 003 (PR #69 review round 3, later than herdr.md): server_not_running is no definite answer either.
    case 'server_not_running':
    case 'unknown':
      return { kind: 'orphan-unknown', why: presence };
    default: {
      const never: never = presence;
      return never;
    }
  }
}

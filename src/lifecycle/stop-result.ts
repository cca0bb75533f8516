import type { PurgeResult } from '../purge/purge-result.js';
import type { SessionRow } from '../registry/session-row.js';
import type { LifecycleStepError } from './lifecycle-step-error.js';

/**
 * How the session went: asked to exit and gone in time (`exited`), still there when the wait ran out and ended by
 * closing its pane (`forced`), or not running in herdr at all (`already-gone`).
 * @public
 */
export interface StopExit {
  /** How the session ended. */
  how: 'exited' | 'forced' | 'already-gone';
  /** The pane the session ran in, when known. */
  pane: string | null;
  /** True when that pane was closed (or was already gone). */
  paneClosed: boolean;
  /** The id captured onto the row just before the stop (post-discovered rows that recorded none). */
  captured: string | null;
}

/**
 * The outcome of a stop:
 * - `stopped`: the session is down and the row is `stopped` (its id kept);
 * - `purged-and-removed`: stopped, its recorded id purged (`purge`: null when the row recorded no id, `unresolved` when
 *   nothing of it was on disk), and the row removed;
 * - `records-preserved`: stopped, but the purge was refused because a live process still uses the conversation: the row
 *   stays `stopped` with its id, nothing was removed (the session itself may already be down: the gate runs after the stop);
 * - `not-found`: no row of that name; `needs-yes`: a purge was asked without `yes` (nothing touched);
 * - `failed`: a step could not be done (the row says how far it got).
 * @public
 */
export type StopResult =
  | { kind: 'stopped'; row: SessionRow; id: string | null; exit: StopExit }
  | { kind: 'purged-and-removed'; row: SessionRow; id: string | null; exit: StopExit; purge: PurgeResult | null }
  | { kind: 'records-preserved'; row: SessionRow; id: string; exit: StopExit; holders: { pid: number; command: string }[]; hints: string[]; message: string }
  | { kind: 'not-found'; name: string }
  | { kind: 'needs-yes'; name: string; message: string }
  | { kind: 'failed'; step: 'validate' | 'stop' | 'mark-stopped' | 'purge'; error: LifecycleStepError; row: SessionRow };

/**
 * Options of {@link SessionLifecycle.stop}.
 * @public
 */
export interface StopOptions {
  /** Purge the recorded conversation and remove the row (needs `yes`). */
  purge?: boolean;
  /** Confirms a purge. */
  yes?: boolean;
  /** Aborts the wait for the agent to exit. */
  signal?: AbortSignal;
}

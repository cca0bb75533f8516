import type { IdOrderRefusal } from '../gate/id-order-refusal.js';
import type { AgentName } from '../ids/agent-names.js';
import type { SessionRow } from '../registry/session-row.js';
import type { LifecycleStepError } from './lifecycle-step-error.js';

/**
 * The steps of a create that can fail, in order (a failing preflight is its own outcome, `preflight-failed`).
 * @public
 */
export type CreateStep = 'validate' | 'gate' | 'workspace' | 'start' | 'register';

/**
 * What onboarding found: whether the agent came up ready, and the id the row now records (pre-assigned, reported by herdr
 * and verified on disk, or captured from disk), or why there is none yet.
 * @public
 */
export interface OnboardingReport {
  /** False when onboarding was not asked for. */
  ran: boolean;
  /** True when the agent reached idle, done or blocked within the ready wait. */
  ready: boolean;
  /** The id the row now records, or null when none is recorded yet. */
  id: string | null;
  /** Where the id came from, or null with no id. */
  source: 'pre-assigned' | 'herdr' | 'disk' | null;
  /** Why no id was recorded (a capture reason such as `ambiguous`, or what went wrong). */
  reason: string | null;
}

/**
 * What a create undid after a failed step: the pane it closed (only a pane this attempt made or started an agent in).
 * @public
 */
export interface CreateCleanup {
  /** The pane id closed, or null when no pane was closed. */
  paneClosed: string | null;
  /** A pane left as it was, and why. */
  note?: string;
}

/**
 * The outcome of a create:
 * - `created`: the agent runs and its row is registered `running` (new created-at and epoch); `id` is the id the row
 *   records (null: a post-discovered agent whose id is not captured yet);
 * - `preflight-failed`: the agent CLI cannot start here (`authOk`); nothing was made; `rc` is the exit code to give;
 * - `failed`: a step failed (the id-order gate's refusal included, with its evidence); what was made was undone as `cleanup` says.
 * @public
 */
export type CreateResult<Extra extends string = never> =
  | { kind: 'created'; row: SessionRow; id: string | null; onboarding: OnboardingReport }
  | { kind: 'preflight-failed'; agent: AgentName | Extra; rc: number; message: string }
  | { kind: 'failed'; step: CreateStep; error: LifecycleStepError; refusal?: IdOrderRefusal; cleanup: CreateCleanup };

/**
 * Options of {@link SessionLifecycle.create}.
 * @public
 */
export interface CreateOptions {
  /** Wait until ready and capture the id (default true). */
  onboard?: boolean;
  /** Aborts the id-order gate's wait and onboarding's waits. */
  signal?: AbortSignal;
  /**
   * The `herdr_session_created_at` of the instance this one replaces when its row is already gone (a reset removes the
   * row with the purge before it creates again): the new instance's created-at differs from it, as it differs from a
   * row of the name still registered, so the new instance is always told from the old even within the same second.
   */
  replaces?: string;
}

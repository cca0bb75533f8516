import type { AgentName } from '../ids/agent-names.js';

/**
 * Where a pinned id came from: herdr's `agent_session` report (verified on disk) or the adapter's capture from disk.
 * @public
 */
export type PinSource = 'herdr' | 'disk';

/**
 * What {@link AutoPin.handleCompleted} did for one completed job: pinned the row's id, skipped (nothing to do, or the
 * (job, token, attempt) was already handled — `previous` is what that run did), or failed (the reason is left on the row
 * when `noted`; the job record is never touched either way). `Extra` names the outside agents AutoPin was given.
 * @public
 */
export type AutoPinResult<Extra extends string = never> =
  | { kind: 'pinned'; jobId: string; name: string; agent: AgentName | Extra; id: string; source: PinSource }
  | { kind: 'skipped'; jobId: string; name: string | null; reason: string; previous?: AutoPinResult<Extra> }
  | { kind: 'failed'; jobId: string; name: string | null; reason: string; candidates: string[]; noted: boolean };

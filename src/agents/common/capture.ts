import type { CaptureResult } from '../types.js';

/**
 * What an adapter found out about one capture candidate.
 * @public
 */
export interface CaptureCandidate {
  /** The candidate conversation id. */
  id: string;
  /** Verified in `discover` mode (a conversation of this workspace on disk). */
  verified: boolean;
  /** Started at or after the row's session epoch. */
  newer: boolean;
  /** Recorded by another row. */
  claimed: boolean;
  /** Proven to belong to the row's live session (agy: held by its pane process); adapters that need no proof pass true. */
  proven?: boolean;
}

/**
 * The capture rule shared by every adapter: exactly one verified, unclaimed, newer, proven candidate, or the first reason
 * that rules the rest out.
 * @public
 */
export function decideCapture(candidates: readonly CaptureCandidate[]): CaptureResult {
  const ids = candidates.map((c) => c.id);
  const verified = candidates.filter((c) => c.verified);
  if (verified.length === 0) return { kind: 'none', reason: 'no-candidate', candidates: ids };
  const unclaimed = verified.filter((c) => !c.claimed);
  if (unclaimed.length === 0) return { kind: 'none', reason: 'claimed-by-other-row', candidates: verified.map((c) => c.id) };
  const newer = unclaimed.filter((c) => c.newer);
  if (newer.length === 0) return { kind: 'none', reason: 'not-newer', candidates: unclaimed.map((c) => c.id) };
  if (newer.length > 1) return { kind: 'none', reason: 'ambiguous', candidates: newer.map((c) => c.id) };
  const only = newer[0] as CaptureCandidate;
  if (only.proven === false) return { kind: 'none', reason: 'unprovable', candidates: [only.id] };
  return { kind: 'captured', id: only.id };
}

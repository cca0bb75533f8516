import type { LeftArtifact } from '../../purge/artifact.js';
import { REMOVAL_REASONS } from '../../paths/removal-reasons.js';
import type { StorePurgeOutcome } from './agent-store.js';

/**
 * The residual as a report shows it after a purge: a path the purge found swapped under it names the swap as its reason,
 * and the purge's row-delete failures follow while anything of the id is left or cannot be checked (rows deleted by
 * someone else since leave no note).
 */
export function residualAfter(now: readonly LeftArtifact[], outcome: StorePurgeOutcome | undefined): LeftArtifact[] {
  if (outcome === undefined) return [...now];
  const swapped = new Set(outcome.swapped ?? []);
  const out = now.map((l) => (l.kind !== 'rows' && swapped.has(l.path) ? { ...l, reason: REMOVAL_REASONS.swapped } : l));
  return out.length > 0 ? [...out, ...(outcome.rowFailures ?? [])] : out;
}

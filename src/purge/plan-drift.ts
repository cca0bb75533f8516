import { type Artifact, formatArtifact, sameArtifact } from './artifact.js';
import type { PlanChange, PurgePlan } from './purge-plan.js';

// Paths are the same place whatever their kind now (a file that became a link is the same path, changed).
function samePlace(a: Artifact, b: Artifact): boolean {
  if (a.kind === 'rows' || b.kind === 'rows') return sameArtifact(a, b);
  return a.path === b.path;
}

function changeOf(now: Artifact, planned: Artifact | undefined): PlanChange | null {
  if (planned === undefined) return { change: 'new', artifact: now };
  if (now.kind === 'rows' && planned.kind === 'rows') return now.count > planned.count ? { change: 'more-rows', artifact: now, planned } : null;
  if (now.kind === planned.kind) return null;
  return { change: now.kind === 'link' ? 'became-link' : 'kind-changed', artifact: now, planned };
}

/**
 * The ways a fresh plan differs from the one a caller previewed in a way that matters: new artifacts, a path of another
 * kind (a file that became a link), rows that grew, new refusals. What has gone since is no change (nothing to remove).
 * @public
 */
export function planDrift(planned: Pick<PurgePlan, 'artifacts' | 'refused'>, fresh: Pick<PurgePlan, 'artifacts' | 'refused'>): PlanChange[] {
  const out: PlanChange[] = [];
  for (const now of fresh.artifacts) {
    const c = changeOf(
      now,
      planned.artifacts.find((p) => samePlace(p, now)),
    );
    if (c !== null) out.push(c);
  }
  const said = new Set(planned.refused.map((r) => formatArtifact(r, { reason: true })));
  for (const r of fresh.refused) if (!said.has(formatArtifact(r, { reason: true }))) out.push({ change: 'new-refusal', artifact: r });
  return out;
}

import { displayName } from './display-name.js';
import type { ResetPlan, ResetTarget } from './reset-target.js';

/**
 * The dry-run listing: each target with every spec field, each skipped row with its reason, each orchestrator id.
 * @public
 */
export function dryRunListing(targets: readonly ResetTarget[], plan: ResetPlan): string {
  const lines: string[] = [];
  for (const t of targets) {
    const fields = [`agent=${t.agent}`, `role=${t.role}`, `herdr_server=${t.herdrServer}`, `herdr_workspace=${t.herdrWorkspace}`, `old_id=${t.oldId ?? '-'}`, `old_created_at=${t.oldCreatedAt ?? '-'}`];
    lines.push(`target: ${displayName(t.name)} ${fields.map((f) => f.replace(/[\u0000-\u001f\u007f]/g, '?')).join(' ')}`);
  }
  for (const s of plan.skipped) lines.push(`skip: ${displayName(s.name)} (${s.reason})`);
  for (const o of plan.orchestrators) lines.push(`orchestrator ${displayName(o)} (not a row; never reset)`);
  return lines.join('\n');
}

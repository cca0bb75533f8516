import { checkAttribution } from './check-attribution.js';
import { ATTRIBUTION_FIELDS } from './dispatch-context.js';
import { paneMatchesGeneration } from './pane-matches-generation.js';
import { durationOrUndefined, type PolicyEvidence } from './policy-evidence.js';
import type { PolicyDecision } from './policy-scenario.js';

/**
 * One rule of the policy: a decision when the rule settles the case, else null (on to the next rule).
 * @public
 */
export type PolicyRule = (e: PolicyEvidence) => PolicyDecision | null;

const KNOWN_STATUSES = ['idle', 'working', 'blocked', 'done'];

const hold = (reason: string): PolicyDecision => ({ decision: 'hold', reason });
const reject = (reason: string): PolicyDecision => ({ decision: 'reject', reason });
const reobserve = (reason: string): PolicyDecision => ({ decision: 'reobserve', reason });

function show(v: unknown): string {
  return v === undefined ? 'absent' : JSON.stringify(v);
}

// 1. Transport doubt or stale evidence invalidates the evidence itself, so nothing is inferred from it.
const reobserveRule: PolicyRule = ({ observation, agent, limits }) => {
  if (observation === undefined) return reobserve('transport unknown: no observation, observe again');
  const transport = observation['transport'];
  if (transport !== 'ok') return reobserve(`transport is ${show(transport)}, not ok: the evidence cannot be trusted, observe again`);
  const age = durationOrUndefined(observation['snapshot_age_ms']);
  const limit = durationOrUndefined(limits?.['max_snapshot_age_ms']);
  if (age === undefined) return reobserve('snapshot age unknown: cannot tell a fresh snapshot from a stale one');
  if (limit === undefined) return reobserve('snapshot age limit unknown (limits.max_snapshot_age_ms): cannot tell a fresh snapshot from a stale one');
  if (age > limit) return reobserve(`snapshot is stale: ${age} ms old, the limit is ${limit} ms`);
  const status = agent?.['agent_status'];
  if (typeof status !== 'string' || !KNOWN_STATUSES.includes(status)) return reobserve(`agent status unknown (${show(status)}): observe again`);
  return null;
};

// 2. A blocked agent waits for a human and can never be completed.
const blockedRule: PolicyRule = ({ agent }) =>
  agent?.['agent_status'] === 'blocked' ? { decision: 'blocked', reason: 'the agent is blocked waiting for a human (e.g. a permission prompt): it can never be completed' } : null;

// 3. Attribution, anchor included, before quiescence: idle is no evidence of finishing when a session is reused.
const attributionRule: PolicyRule = ({ ctx, observation, agent, job }) => {
  if (ctx === undefined) return hold('attribution incomplete: no dispatch context');
  const observed: Record<string, unknown> = {};
  for (const field of ATTRIBUTION_FIELDS) {
    const v = observation?.[field];
    if (v === undefined || v === null || v === '') return hold(`attribution incomplete: the observation does not name ${field}`);
    observed[field] = v;
  }
  const verdict = checkAttribution(ctx, observed);
  if (verdict.kind === 'incomplete') return hold(verdict.reason);
  if (verdict.kind === 'mismatch') return reject(verdict.reason);
  const pane = agent?.['pane_id'];
  if (typeof pane !== 'string' || pane === '') return hold('attribution incomplete: the agent snapshot names no pane');
  if (!paneMatchesGeneration(pane, ctx['pane_process_generation'])) {
    return reject(`attribution mismatch: pane ${pane} is not the pane of the dispatched generation ${show(ctx['pane_process_generation'])}`);
  }
  if (job === undefined) return hold('attribution incomplete: no job record');
  for (const field of ['job_id', 'attempt_id'] as const) {
    const v = job[field];
    if (v === undefined || v === null || v === '') return hold(`attribution incomplete: the job record has no ${field}`);
    if (v !== ctx[field]) return reject(`attribution mismatch: ${field} of the job record is ${show(v)}, the dispatch was ${show(ctx[field])}`);
  }
  if (job['status'] !== 'running') return hold(`the job is ${show(job['status'])}, not running: nothing to complete`);
  return null;
};

// 4. Quiescence: idle or done, for at least the required time.
const quiescenceRule: PolicyRule = ({ agent, quiescence }) => {
  const status = agent?.['agent_status'];
  if (status !== 'idle' && status !== 'done') return hold(`not quiescent: the agent is ${show(status)}`);
  const idleFor = durationOrUndefined(quiescence?.['idle_for_ms']);
  const required = durationOrUndefined(quiescence?.['required_idle_ms']);
  if (idleFor === undefined || required === undefined) return hold('quiescence unknown: no idle_for_ms / required_idle_ms evidence');
  if (idleFor < required) return hold(`not quiescent long enough: idle for ${idleFor} ms of the required ${required} ms`);
  return null;
};

// 5. The report must be finalized: a stable mtime is a candidate filter, never an authority.
const reportRule: PolicyRule = ({ filesystem }) => {
  if (filesystem === undefined) return hold('report evidence absent: no filesystem block');
  if (filesystem['report_present'] !== true) return hold('report not present');
  if (filesystem['manifest_committed'] !== true) return hold('report manifest not committed: a paused report is not a finished one');
  if (filesystem['hash_verified'] !== true) return hold('report hash not verified: the report may still be being written');
  return null;
};

/**
 * The rules in the order that matters: reobserve, blocked, attribution, quiescence, report.
 * @public
 */
export const POLICY_RULES: readonly PolicyRule[] = [reobserveRule, blockedRule, attributionRule, quiescenceRule, reportRule];

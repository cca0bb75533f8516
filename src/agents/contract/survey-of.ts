import type { HomeDiscoveryContext, StoreReport, StoreSurvey } from '../types.js';

/**
 * The survey of a store, from its inspection: `missing` when absent, `unreadable` when a problem says so,
 * `unknown-layout` when the layout is not known, else `ok` (with the problems as its reason).
 */
export function surveyOf(r: StoreReport, ctx: HomeDiscoveryContext): StoreSurvey {
  const root = r.root ?? ctx.home;
  const reason = r.problems.length > 0 ? r.problems.join('; ') : undefined;
  const base = { agent: r.agent, root, ...(reason === undefined ? {} : { reason }), counts: r.counts };
  if (r.presence === 'absent') return { ...base, store: 'missing' };
  if (r.problems.some((p) => /unreadable|cannot be read|inspection failed/i.test(p))) return { ...base, store: 'unreadable' };
  if (r.known === false) return { ...base, store: 'unknown-layout' };
  return { ...base, store: 'ok' };
}

import type { HomeDiscoveryContext, StoreReport, StoreSurvey } from '../types.js';

/**
 * The survey of a store, from its inspection (the one report a store gives of itself): `missing` when absent,
 * `unreadable` when part of it could not be read (`readable: false`), `unknown-layout` when the layout is not known,
 * else `ok`; the problems are its reason, its counts and `outsideHome` are the inspection's.
 */
export function surveyOf(r: StoreReport, ctx: HomeDiscoveryContext): StoreSurvey {
  const root = r.root ?? ctx.home;
  const reason = r.problems.length > 0 ? r.problems.join('; ') : r.presence === 'absent' ? `${root} does not exist` : undefined;
  const base = { agent: r.agent, root, ...(reason === undefined ? {} : { reason }), counts: r.counts, ...(r.outsideHome === undefined ? {} : { outsideHome: r.outsideHome }) };
  if (r.presence === 'absent') return { ...base, store: 'missing' };
  if (r.readable === false) return { ...base, store: 'unreadable' };
  if (r.known === false) return { ...base, store: 'unknown-layout' };
  return { ...base, store: 'ok' };
}

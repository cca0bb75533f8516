import { ATTRIBUTION_FIELDS, type AttributionField, type DispatchContext } from './dispatch-context.js';

/**
 * Identifiers observed now (any subset), compared with the dispatch context.
 * @public
 */
export type AttributionObserved = Readonly<Partial<Record<AttributionField, unknown>>>;

/**
 * One identifier that differs between the dispatch and the observation.
 * @public
 */
export interface AttributionMismatch {
  /** The identifier that differs. */
  field: AttributionField;
  /** Its value in the dispatch context. */
  dispatched: unknown;
  /** Its value observed now. */
  observed: unknown;
}

/**
 * The verdict of {@link checkAttribution}: ok, incomplete (what is missing: fields, `dispatch_ack`, `execution_anchor`), or a mismatch (which identifiers).
 * @public
 */
export type AttributionResult =
  | { ok: true; kind: 'ok'; reason: string }
  | { ok: false; kind: 'incomplete'; missing: string[]; reason: string }
  | { ok: false; kind: 'mismatch'; mismatches: AttributionMismatch[]; reason: string };

function present(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/**
 * Attribution of an observation to a dispatch: ok only when the four identifiers are present, the dispatch was acknowledged, the execution anchor was observed, and every observed identifier equals the dispatched one.
 * @example
 * ```ts
 * checkAttribution(ctx, { attempt_id: 2 }); // { ok: false, kind: 'mismatch', reason: 'attribution mismatch: attempt_id dispatched 1, observed 2', … }
 * ```
 * @public
 */
export function checkAttribution(ctx: Readonly<Partial<Record<keyof DispatchContext, unknown>>> | null | undefined, observed: AttributionObserved = {}): AttributionResult {
  const c = ctx ?? {};
  const missing: string[] = ATTRIBUTION_FIELDS.filter((f) => !present(c[f]));
  const notes = missing.map((f) => `missing ${f}`);
  if (c.dispatch_ack !== true) {
    missing.push('dispatch_ack');
    notes.push('no dispatch ack');
  }
  if (c.execution_anchor_observed !== true) {
    missing.push('execution_anchor');
    notes.push('no execution anchor observed for this attempt');
  }
  if (missing.length > 0) return { ok: false, kind: 'incomplete', missing, reason: `attribution incomplete: ${notes.join('; ')}` };
  const mismatches: AttributionMismatch[] = [];
  for (const field of ATTRIBUTION_FIELDS) {
    const seen = observed[field];
    if (present(seen) && seen !== c[field]) mismatches.push({ field, dispatched: c[field], observed: seen });
  }
  if (mismatches.length > 0) {
    const what = mismatches.map((m) => `${m.field} dispatched ${JSON.stringify(m.dispatched)}, observed ${JSON.stringify(m.observed)}`);
    return { ok: false, kind: 'mismatch', mismatches, reason: `attribution mismatch: ${what.join('; ')}` };
  }
  return { ok: true, kind: 'ok', reason: 'attributed: dispatch acknowledged, execution anchor observed, identifiers match' };
}

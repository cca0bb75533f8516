import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_FIELDS, attribution, type DispatchContext } from '../../../src/loop/index.js';

const ctx = (over: Partial<Record<keyof DispatchContext, unknown>> = {}): Record<string, unknown> => ({
  job_id: 'j', attempt_id: 1, agent_session_uuid: 'u', pane_process_generation: 'w2X:p1:1234:t',
  dispatch_ack: true, execution_anchor_observed: true, ...over,
});

describe('attribution.check', () => {
  it('is ok only with all four identifiers, the ack and the anchor', () => {
    expect(attribution.check(ctx())).toMatchObject({ ok: true, kind: 'ok' });
    expect(attribution.check(ctx({ execution_anchor_observed: false }))).toMatchObject({ ok: false, kind: 'incomplete', missing: ['execution_anchor'] });
    expect(attribution.check(ctx({ dispatch_ack: false }))).toMatchObject({ ok: false, kind: 'incomplete', missing: ['dispatch_ack'] });
    expect(attribution.check(null)).toMatchObject({ ok: false, kind: 'incomplete' });
  });

  it.each([...ATTRIBUTION_FIELDS])('a missing or null %s makes it incomplete and is named', (field) => {
    const broken = ctx();
    delete broken[field];
    expect(attribution.check(broken)).toMatchObject({ ok: false, kind: 'incomplete', missing: [field] });
    expect(attribution.check(ctx({ [field]: null }))).toMatchObject({ ok: false, missing: [field] });
    expect(attribution.check(ctx({ [field]: '' }))).toMatchObject({ ok: false, missing: [field] });
  });

  it('the reason names the missing anchor', () => {
    expect(attribution.check(ctx({ execution_anchor_observed: false })).reason).toContain('anchor');
  });

  it('a mismatch on any observed identifier is rejected and named; a matching subset is ok', () => {
    expect(attribution.check(ctx(), { attempt_id: 2 })).toMatchObject({ ok: false, kind: 'mismatch', mismatches: [{ field: 'attempt_id', dispatched: 1, observed: 2 }] });
    expect(attribution.check(ctx(), { agent_session_uuid: 'other' })).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(attribution.check(ctx(), { pane_process_generation: 'w2X:p1:9:t' }).reason).toContain('pane_process_generation');
    expect(attribution.check(ctx(), { attempt_id: '1' })).toMatchObject({ ok: false, kind: 'mismatch' });
    expect(attribution.check(ctx(), { attempt_id: 1, job_id: 'j' })).toMatchObject({ ok: true });
    expect(attribution.check(ctx(), {})).toMatchObject({ ok: true });
  });
});

describe('paneMatchesGeneration', () => {
  it('is a whole-segment prefix, never a substring', () => {
    expect(attribution.paneMatchesGeneration('w2X:p1', 'w2X:p1:1234:t')).toBe(true);
    expect(attribution.paneMatchesGeneration('w2X:p1', 'w2X:p10:1234:t')).toBe(false);
    expect(attribution.paneMatchesGeneration('p1', 'w2X:p1:1234:t')).toBe(false);
    expect(attribution.paneMatchesGeneration('w2X:p1', 'w2X:p1')).toBe(false);
    expect(attribution.paneMatchesGeneration('w2X:p1', 'w2X:p1:')).toBe(false);
  });

  it('an empty pane matches nothing', () => {
    expect(attribution.paneMatchesGeneration('', 'w2X:p1:1:t')).toBe(false);
    expect(attribution.paneMatchesGeneration('', ':x')).toBe(false);
    expect(attribution.paneMatchesGeneration(undefined, 'w2X:p1:1:t')).toBe(false);
  });
});

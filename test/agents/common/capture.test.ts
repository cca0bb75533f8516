import { describe, expect, it } from 'vitest';
import { decideCapture } from '../../../src/agents/common/capture.js';

const c = (id: string, over: Partial<{ verified: boolean; newer: boolean; claimed: boolean; proven: boolean }> = {}) => ({ id, verified: true, newer: true, claimed: false, ...over });

describe('decideCapture', () => {
  it('captures exactly one proven candidate', () => {
    expect(decideCapture([c('a')])).toEqual({ kind: 'captured', id: 'a' });
    expect(decideCapture([c('a'), c('b', { newer: false })])).toEqual({ kind: 'captured', id: 'a' });
  });
  it('names each reason', () => {
    expect(decideCapture([])).toMatchObject({ reason: 'no-candidate' });
    expect(decideCapture([c('a', { verified: false })])).toMatchObject({ reason: 'no-candidate', candidates: ['a'] });
    expect(decideCapture([c('a', { claimed: true })])).toMatchObject({ reason: 'claimed-by-other-row' });
    expect(decideCapture([c('a', { newer: false })])).toMatchObject({ reason: 'not-newer' });
    expect(decideCapture([c('a'), c('b')])).toEqual({ kind: 'none', reason: 'ambiguous', candidates: ['a', 'b'] });
    expect(decideCapture([c('a', { proven: false })])).toMatchObject({ reason: 'unprovable', candidates: ['a'] });
  });
  it('never captures a claimed id even when it is the only newer one', () => {
    expect(decideCapture([c('a', { claimed: true }), c('b', { newer: false })])).toMatchObject({ kind: 'none', reason: 'not-newer' });
  });
});

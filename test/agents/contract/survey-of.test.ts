// surveyOf: a store's survey is its inspection seen another way — the verdict comes from typed fields (presence,
// readable, known), never from the wording of a problem.
import { describe, expect, it } from 'vitest';
import { surveyOf } from '../../../src/agents/contract/survey-of.js';
import type { StoreReport } from '../../../src/agents/types.js';

const ctx = { workspace: '/w', home: '/h' };
const report = (over: Partial<StoreReport>): StoreReport => ({ agent: 'x', presence: 'present', root: '/h/.x', layout: 'v1', known: true, counts: { sessions: 2 }, problems: [], ...over });

describe('surveyOf', () => {
  it('absent is missing, with the root named as the reason', () => {
    expect(surveyOf(report({ presence: 'absent', known: null, counts: {} }), ctx)).toEqual({ agent: 'x', store: 'missing', root: '/h/.x', reason: '/h/.x does not exist', counts: {} });
  });

  it('readable: false is unreadable, before an unknown layout; the problems are the reason', () => {
    const s = surveyOf(report({ readable: false, known: false, problems: ['/h/.x/a.db: EACCES', '/h/.x/b.db: unknown layout'] }), ctx);
    expect(s).toMatchObject({ store: 'unreadable', reason: '/h/.x/a.db: EACCES; /h/.x/b.db: unknown layout' });
  });

  it('a problem that only says "unreadable" or "inspection failed" does not make it unreadable (the typed field does)', () => {
    expect(surveyOf(report({ problems: ['a.db: unreadable (x)', 'inspection failed: y'] }), ctx)).toMatchObject({ store: 'ok', reason: 'a.db: unreadable (x); inspection failed: y' });
  });

  it('known: false is unknown-layout; otherwise ok with the counts, and outsideHome carried over', () => {
    expect(surveyOf(report({ known: false }), ctx)).toMatchObject({ store: 'unknown-layout' });
    const s = surveyOf(report({ outsideHome: 3 }), ctx);
    expect(s).toEqual({ agent: 'x', store: 'ok', root: '/h/.x', counts: { sessions: 2 }, outsideHome: 3 });
  });

  it('no root reported: the home', () => {
    expect(surveyOf(report({ root: null }), ctx).root).toBe('/h');
  });
});

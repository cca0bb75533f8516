// The hand check of verifyMany's query list (no zod for the common well-formed one) never accepts what the schema
// refuses: random lists of right and wrong queries, holes and odd objects included.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queriesSchema } from '../../../src/agents/contract/method-guard.js';
import { plainlyValidQueries } from '../../../src/validation/plainly-valid-queries.js';

const value = fc.oneof(
  fc.constantFrom('/abs/ws', '/', 'rel/ws', '', '/nul\0byte', '/x/', 'ses_x'),
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.string(), { maxLength: 2 }),
);
const field = (name: string) => fc.option(value, { nil: undefined }).map((v) => (v === undefined ? {} : { [name]: v }));
const query = fc.oneof(
  fc.tuple(field('id'), field('workspace'), field('other')).map((parts) => Object.assign({}, ...parts) as unknown),
  value,
);
const list = fc.oneof(
  fc.array(query, { maxLength: 5 }),
  fc.array(query, { maxLength: 3 }).map((a) => {
    const sparse = [...a];
    sparse.length = a.length + 1;
    return sparse;
  }),
  value,
);

describe('plainlyValidQueries', () => {
  it('accepts only lists the schema accepts', () => {
    fc.assert(
      fc.property(list, (l) => {
        if (plainlyValidQueries(l)) expect(queriesSchema.safeParse(l).success).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the common list, and leaves holes, class instances, symbol keys and bad fields to the schema', () => {
    expect(plainlyValidQueries([{ id: 'ses_a' }, { id: 'x', workspace: '/w' }, { id: '', workspace: undefined }])).toBe(true);
    expect(plainlyValidQueries([])).toBe(true);
    // eslint-disable-next-line no-sparse-arrays
    expect(plainlyValidQueries([{ id: 'a' }, , { id: 'b' }])).toBe(false);
    expect(plainlyValidQueries([Object.assign(Object.create({ x: 1 }) as object, { id: 'a' })])).toBe(false);
    expect(plainlyValidQueries([{ id: 'a', [Symbol('s')]: 1 }])).toBe(false);
    for (const bad of [[{ id: 1 }], [{ id: 'a', workspace: 'rel' }], [{ id: 'a', workspace: '' }], [{ id: 'a', workspace: '/n\0' }], [null], 'x', { id: 'a' }]) {
      expect(plainlyValidQueries(bad)).toBe(false);
    }
  });
});

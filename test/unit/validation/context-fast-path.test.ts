// The hand check of a discovery context (no zod for the common well-formed one) never accepts what the schema refuses,
// and gives the same home: random contexts of right and wrong field values, both ways.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDiscoveryContext, contextSchema, plainlyValidContext } from '../../../src/validation/discovery-context.js';

const value = fc.oneof(
  fc.constantFrom('/abs/ws', '/', 'rel/ws', '', '/nul\0byte', '/x/'),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, -1, 1.5),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.oneof(fc.string(), fc.integer()), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.constant(undefined), fc.integer()), { maxKeys: 3 }),
);
const field = (name: string) => fc.option(value, { nil: undefined }).map((v) => (v === undefined ? {} : { [name]: v }));
const ctx = fc
  .tuple(field('workspace'), field('home'), field('homeDir'), field('env'), field('epoch'), field('panePid'), field('siblingClaimedIds'), field('other'))
  .map((parts) => Object.assign({}, ...parts) as Record<string, unknown>);

describe('plainlyValidContext', () => {
  it('accepts only contexts the schema accepts, with the same home', () => {
    fc.assert(
      fc.property(ctx, (c) => {
        if (!plainlyValidContext(c)) return;
        const parsed = contextSchema.safeParse(c);
        expect(parsed.success).toBe(true);
        if (parsed.success) expect([parsed.data.home, parsed.data.homeDir]).toEqual([c['home'], c['homeDir']]);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the common well-formed context, and leaves a class instance, a symbol key or a bad field to the schema', () => {
    expect(plainlyValidContext({ workspace: '/w', home: '/h', env: { HOME: '/h', X: undefined }, epoch: 1.5, panePid: 42, siblingClaimedIds: ['a'] })).toBe(true);
    expect(plainlyValidContext(Object.assign(Object.create({ x: 1 }) as object, { workspace: '/w', home: '/h' }))).toBe(false);
    expect(plainlyValidContext({ workspace: '/w', home: '/h', [Symbol('s')]: 1 })).toBe(false);
    for (const bad of [{ workspace: 'rel' }, { workspace: '/w', home: '' }, { workspace: '/w', env: { A: 1 } }, { workspace: '/w', epoch: Number.NaN }, { workspace: '/w', panePid: 1.5 }]) {
      expect(plainlyValidContext(bad)).toBe(false);
    }
    // The faults are still the schema's.
    expect(() => checkDiscoveryContext({ workspace: '/w', home: '/h', epoch: 'x' })).toThrow(/ctx\.epoch/);
  });
});

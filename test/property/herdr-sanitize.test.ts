import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isValidHerdrAgentName, sanitizeHerdrAgentName } from '../../src/herdr/sanitize.js';

const validName = fc.stringMatching(/^[a-z][a-z0-9_-]{0,31}$/);
const anyName = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 60 }));

describe('sanitizeHerdrAgentName (properties)', () => {
  it('always yields a name herdr accepts, at most 32 characters', () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const out = sanitizeHerdrAgentName(name);
        expect(isValidHerdrAgentName(out)).toBe(true);
        expect(out.length).toBeLessThanOrEqual(32);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves valid names unchanged', () => {
    fc.assert(
      fc.property(validName, (name) => {
        expect(sanitizeHerdrAgentName(name)).toBe(name);
      }),
    );
  });

  it('is deterministic and idempotent', () => {
    fc.assert(
      fc.property(anyName, (name) => {
        const once = sanitizeHerdrAgentName(name);
        expect(sanitizeHerdrAgentName(name)).toBe(once);
        expect(sanitizeHerdrAgentName(once)).toBe(once);
      }),
    );
  });

  it('maps distinct invalid names to distinct herdr names', () => {
    fc.assert(
      fc.property(fc.uniqueArray(anyName.filter((n) => !isValidHerdrAgentName(n)), { minLength: 500, maxLength: 2000 }), (names) => {
        const outs = new Set(names.map(sanitizeHerdrAgentName));
        expect(outs.size).toBe(names.length);
      }),
      { numRuns: 20 },
    );
  });

  it('keeps names made of lone surrogates apart', () => {
    const lone = fc.array(fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), { minLength: 1, maxLength: 3 }).map((a) => a.join(''));
    fc.assert(
      fc.property(fc.uniqueArray(lone, { minLength: 50, maxLength: 300 }), (names) => {
        expect(new Set(names.map(sanitizeHerdrAgentName)).size).toBe(names.length);
      }),
      { numRuns: 20 },
    );
  });

  it('keeps distinct invalid names apart even when they share a long prefix', () => {
    const prefix = 'Shared-Prefix-That-Is-Longer-Than-Twenty-Three';
    const names = Array.from({ length: 20_000 }, (_, i) => `${prefix}-${i}`);
    expect(new Set(names.map(sanitizeHerdrAgentName)).size).toBe(names.length);
  });
});

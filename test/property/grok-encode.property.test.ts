import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeGrokBucket, encodeGrokCwd } from '../../src/agents/grok/grok-encode.js';

// Absolute paths whose text survives UTF-8 (a lone surrogate does not, and no cwd holds one).
const cwdArb = fc
  .array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('/') && !s.includes('\0')), { minLength: 1, maxLength: 8 })
  .map((parts) => `/${parts.join('/')}`)
  .filter((s) => Buffer.from(s, 'utf8').toString('utf8') === s);

describe('grok bucket names (urlencoding::encode)', () => {
  it('a URL-encoded bucket holds only unreserved bytes and %XX, decodes back to its cwd, and is null past 255 bytes', () => {
    fc.assert(
      fc.property(cwdArb, (cwd) => {
        const name = encodeGrokCwd(cwd);
        if (name === null) return;
        expect(name).toMatch(/^([A-Za-z0-9\-_.~]|%[0-9A-F]{2})+$/);
        expect(name.length).toBeLessThanOrEqual(255);
        expect(decodeGrokBucket(name)).toBe(cwd);
      }),
    );
  });

  it('matches the real capture and the long-path rule', () => {
    expect(encodeGrokCwd('/private/tmp/grok-fixture/project')).toBe('%2Fprivate%2Ftmp%2Fgrok-fixture%2Fproject');
    expect(encodeGrokCwd('/a b/ü~')).toBe('%2Fa%20b%2F%C3%BC~');
    expect(encodeGrokCwd(`/${'x'.repeat(254)}`)).toBeNull();
    expect(decodeGrokBucket('nested-directory-014-d57c02c5ec15a4db')).toBeNull();
    expect(decodeGrokBucket('%ZZ')).toBeNull();
  });
});

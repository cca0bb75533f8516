import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidHerdrAgentName, sanitizeHerdrAgentName } from '../../../src/herdr/sanitize.js';

const sha8 = (s: string): string => createHash('sha1').update(s, 'utf8').digest('hex').slice(0, 8);

describe('isValidHerdrAgentName', () => {
  it.each(['a', 'reviewer', 'a-b_c9', `a${'b'.repeat(31)}`])('accepts %j', (name) => {
    expect(isValidHerdrAgentName(name)).toBe(true);
  });
  it.each(['', 'Reviewer', '9lives', '-x', '_x', 'a b', 'a.b', `a${'b'.repeat(32)}`, 'é', 'a\n'])('rejects %j', (name) => {
    expect(isValidHerdrAgentName(name)).toBe(false);
  });
});

describe('sanitizeHerdrAgentName', () => {
  it('returns a valid name unchanged', () => {
    expect(sanitizeHerdrAgentName('reviewer-2')).toBe('reviewer-2');
  });

  it('lower-cases, dashes other characters and appends the SHA-1 of the original', () => {
    expect(sanitizeHerdrAgentName('My Agent.v2')).toBe(`my-agent-v2-${sha8('My Agent.v2')}`);
  });

  it('prefixes a letter when the name starts with a non-letter', () => {
    expect(sanitizeHerdrAgentName('2nd')).toBe(`a2nd-${sha8('2nd')}`);
    expect(sanitizeHerdrAgentName('-x')).toBe(`a-x-${sha8('-x')}`);
    expect(sanitizeHerdrAgentName('')).toBe(`a-${sha8('')}`);
  });

  it('cuts a long name to 23 characters before the hash: 32 in all', () => {
    const long = 'claude-reviewer-for-the-frontend-team';
    const out = sanitizeHerdrAgentName(long.toUpperCase());
    expect(out).toBe(`${long.slice(0, 23)}-${sha8(long.toUpperCase())}`);
    expect(out).toHaveLength(32);
  });

  it('hashes the original, so names differing only in case stay apart', () => {
    expect(sanitizeHerdrAgentName('Alpha')).not.toBe(sanitizeHerdrAgentName('ALPHA'));
  });

  it('a 33-character lower-case name is over herdr limit and gets hashed', () => {
    const name = `a${'b'.repeat(32)}`;
    expect(sanitizeHerdrAgentName(name)).toBe(`${name.slice(0, 23)}-${sha8(name)}`);
  });
});

describe('sanitizeHerdrAgentName with ill-formed UTF-16', () => {
  it('keeps names differing only in a lone surrogate apart (UTF-8 would make both U+FFFD)', () => {
    expect(sanitizeHerdrAgentName('x\uD800')).not.toBe(sanitizeHerdrAgentName('x\uDBFF'));
    expect(sanitizeHerdrAgentName('\uDC00')).not.toBe(sanitizeHerdrAgentName('\uDFFF'));
  });

  it('still hashes well-formed names (astral characters included) as UTF-8', () => {
    expect(sanitizeHerdrAgentName('agent 😀')).toBe(`agent----${sha8('agent 😀')}`);
  });
});

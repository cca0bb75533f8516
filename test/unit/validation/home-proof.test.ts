// A look inside the home proves it a directory only for a plain path strictly inside it.
import { describe, expect, it } from 'vitest';
import { insideHome } from '../../../src/validation/home-proof.js';

describe('insideHome', () => {
  it('takes a plain path strictly inside the home, and nothing else', () => {
    expect(insideHome('/home/me', '/home/me/.codex')).toBe(true);
    expect(insideHome('/home/me', '/home/me/.local/share/opencode')).toBe(true);
    for (const p of ['/home/me', '/home/me/', '/home/mex/.codex', '/home/me/../x', '/home/me/./x', '/home/me//x', '/home/me/x/..', '/elsewhere/.codex']) {
      expect(insideHome('/home/me', p), p).toBe(false);
    }
    expect(insideHome('/', '/x')).toBe(false);
  });
});

// The one fact cache (src/cache/fact-cache.ts) and its one rule: a fact is remembered under the lstat stamp of the files
// it was read from once those looks have settled, answered again only under the same stamp, never without a clock, and
// not at all when turned off.
import { describe, expect, it } from 'vitest';
import { factCacheOf, SETTLED_MS, setFactCaching, settled, statStamp } from '../../../src/cache/fact-cache.js';
import type { FileStat, FileSystemPort } from '../../../src/ports/fs.js';

const NOW = 1_800_000_000_000;
const stat = (mtimeMs: number, over: Partial<FileStat> = {}): FileStat => ({ kind: 'file', dev: 1, ino: 2, size: 3, mtimeMs, nlink: 1, ...over }) as FileStat;
const port = (): FileSystemPort => ({}) as FileSystemPort;
const old = stat(NOW - SETTLED_MS - 1);
const fresh = stat(NOW - 10);

describe('the fact cache', () => {
  it('remembers a fact read under settled looks and answers it under the same stamp only', () => {
    const c = factCacheOf(port());
    expect(c.remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 42 })).toBe(true);
    expect(c.get('s', 'k', statStamp(old))).toEqual({ value: 42 });
    // Any change of the look (size, mtime, inode, kind) is another stamp: nothing is answered, and the entry goes.
    for (const changed of [stat(old.mtimeMs, { size: 4 }), stat(old.mtimeMs + 1), stat(old.mtimeMs, { ino: 9 }), stat(old.mtimeMs, { kind: 'symlink' })]) {
      c.remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 42 });
      expect(c.get('s', 'k', statStamp(changed))).toBeUndefined();
      expect(c.peek('s', 'k')).toBeUndefined();
    }
  });

  it('remembers nothing while a look is unsettled, without a clock, or with a clock that is no number', () => {
    const c = factCacheOf(port());
    expect(c.remember({ space: 's', key: 'a', looks: [old, fresh], now: NOW, value: 1 })).toBe(false);
    expect(c.remember({ space: 's', key: 'b', looks: [old], now: undefined, value: 1 })).toBe(false);
    expect(c.remember({ space: 's', key: 'c', looks: [old], now: Number.NaN, value: 1 })).toBe(false);
    expect([c.peek('s', 'a'), c.peek('s', 'b'), c.peek('s', 'c')]).toEqual([undefined, undefined, undefined]);
    // An unsettled read forgets what was remembered under the key before.
    c.remember({ space: 's', key: 'a', looks: [old], now: NOW, value: 1 });
    c.remember({ space: 's', key: 'a', looks: [fresh], now: NOW, value: 2 });
    expect(c.peek('s', 'a')).toBeUndefined();
    expect(settled([null], NOW)).toBe(true);
  });

  it('keeps ports and spaces apart', () => {
    const a = port();
    const b = port();
    factCacheOf(a).remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 'a' });
    expect(factCacheOf(b).peek('s', 'k')).toBeUndefined();
    expect(factCacheOf(a).peek('t', 'k')).toBeUndefined();
    expect(factCacheOf(a)).toBe(factCacheOf(a));
  });

  it('turned off, forgets everything and remembers nothing until turned on again', () => {
    const fs = port();
    const c = factCacheOf(fs);
    c.remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 1 });
    setFactCaching(fs, false);
    expect(c.enabled).toBe(false);
    expect(c.peek('s', 'k')).toBeUndefined();
    expect(c.remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 1 })).toBe(false);
    expect(c.get('s', 'k', statStamp(old))).toBeUndefined();
    setFactCaching(fs, true);
    expect(c.remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 1 })).toBe(true);
  });

  it('uses the stamp the caller gives when it builds one from the looks itself', () => {
    const c = factCacheOf(port());
    c.remember({ space: 's', key: 'k', looks: [old], now: NOW, value: 1, stamp: 'mine' });
    expect(c.get('s', 'k', 'mine')).toEqual({ value: 1 });
    expect(c.get('s', 'k', statStamp(old))).toBeUndefined();
  });
});

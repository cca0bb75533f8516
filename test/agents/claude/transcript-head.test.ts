import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscriptHead, readTranscriptHead } from '../../../src/agents/claude/transcript-head.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { FileSystemPort } from '../../../src/ports/fs.js';

const fs = new NodeFileSystem();
const line = (o: unknown): string => `${JSON.stringify(o)}\n`;

describe('parseTranscriptHead', () => {
  it('takes the first cwd and the first top-level timestamp (a /clear transcript starts with records having neither)', () => {
    const text = [
      line({ type: 'mode', mode: 'normal', sessionId: 's' }),
      line({ type: 'file-history-snapshot', snapshot: { timestamp: '2020-01-01T00:00:00.000Z' } }),
      line({ type: 'user', cwd: '/w', timestamp: '2026-11-30T00:43:33.730Z' }),
      line({ type: 'user', cwd: '/elsewhere', timestamp: '2026-11-30T00:43:33.634Z' }),
    ].join('');
    expect(parseTranscriptHead(text, true)).toEqual({ head: { cwd: '/w', startMs: Date.parse('2026-11-30T00:43:33.730Z') }, done: true });
  });

  it('cwdOnly: done at the first cwd (the start is what came before it), the same cwd as a full scan', () => {
    const text = [line({ type: 'user', cwd: '/w' }), line({ type: 'user', cwd: '/x', timestamp: '2026-01-01T00:00:00Z' })].join('');
    expect(parseTranscriptHead(text, false, true)).toEqual({ head: { cwd: '/w', startMs: null }, done: true });
    expect(parseTranscriptHead(text, false)).toEqual({ head: { cwd: '/w', startMs: Date.parse('2026-01-01T00:00:00Z') }, done: true });
  });

  it('skips garbage and non-object lines, and leaves an unfinished last line for a longer read', () => {
    const text = `not json\n[1,2]\n${line({ timestamp: '2026-01-01T00:00:00Z' })}{"cwd":"/w"`;
    expect(parseTranscriptHead(text, false)).toEqual({ head: { cwd: null, startMs: Date.parse('2026-01-01T00:00:00Z') }, done: false });
    expect(parseTranscriptHead(`${text}}`, true).head.cwd).toBe('/w');
  });

  it('law: cutting the file anywhere never yields a cwd other than the first one', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.string({ minLength: 1, maxLength: 8 }), { nil: null }), { minLength: 1, maxLength: 6 }), fc.nat(), (cwds, cut) => {
        const text = cwds.map((c) => line(c === null ? { type: 'x' } : { cwd: c })).join('');
        const first = cwds.find((c) => c !== null) ?? null;
        const part = text.slice(0, cut % (text.length + 1));
        const got = parseTranscriptHead(part, false).head.cwd;
        expect(got === null || got === first).toBe(true);
        expect(parseTranscriptHead(text, true).head.cwd).toBe(first);
      }),
    );
  });
});

describe('readTranscriptHead', () => {
  it('reads only the first chunk when the head is in it, and grows the read for a huge first prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mam-claude-head-'));
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, line({ cwd: '/w', timestamp: '2026-01-01T00:00:00Z' }) + 'x'.repeat(1_000_000));
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, line({ type: 'user', content: 'p'.repeat(300_000) }) + line({ cwd: '/w', timestamp: '2026-01-01T00:00:00Z' }));
    const asked: number[] = [];
    const spy: FileSystemPort = { ...fs, readHead: (p: string, n: number) => (asked.push(n), fs.readHead(p, n)) } as FileSystemPort;
    try {
      expect((await readTranscriptHead(spy, small)).cwd).toBe('/w');
      expect(asked).toEqual([4 * 1024]);
      asked.length = 0;
      expect((await readTranscriptHead(spy, big)).cwd).toBe('/w');
      expect(asked).toEqual([4 * 1024, 32 * 1024, 256 * 1024, 2 * 1024 * 1024]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

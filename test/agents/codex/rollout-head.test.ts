// The first line of a rollout is read from a bounded head only: one 64 KiB read for the real ~26 KB line, a second bounded
// read for a longer one, and never the whole file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRolloutHead } from '../../../src/agents/codex/rollout-head.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { headLine } from '../../helpers/adapter-codex-home.js';
import { SpyFileSystem } from '../../helpers/adapter-codex-spy.js';

const dir = mkdtempSync(join(tmpdir(), 'mam-codex-head-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

describe('readRolloutHead', () => {
  it('reads the real-sized first line in one bounded read and never the rest', async () => {
    const p = file('real.jsonl', `${headLine(ID, '/w', 26_000)}\n${'z'.repeat(5_000_000)}\n`);
    const fs = new SpyFileSystem(new NodeFileSystem());
    expect(await readRolloutHead(fs, p)).toEqual({ id: ID, cwd: '/w' });
    expect(fs.calls).toEqual([{ op: 'readHead', path: p, bytes: 64 * 1024 }]);
  });

  it('a first line over 64 KiB takes one more bounded read', async () => {
    const p = file('long.jsonl', `${headLine(ID, '/w', 300_000)}\n{}\n`);
    const fs = new SpyFileSystem(new NodeFileSystem());
    expect(await readRolloutHead(fs, p)).toEqual({ id: ID, cwd: '/w' });
    expect(fs.calls.map((c) => c.bytes)).toEqual([64 * 1024, 1024 * 1024]);
  });

  it('a first line over 1 MiB is read from its prefix (id and cwd come first)', async () => {
    const p = file('huge.jsonl', `${headLine(ID.toUpperCase(), '/w "q"', 2_000_000)}\n`);
    expect(await readRolloutHead(new NodeFileSystem(), p)).toEqual({ id: ID, cwd: '/w "q"' });
  });

  it('a file without a trailing newline, the oldest format, and garbage', async () => {
    const fs = new NodeFileSystem();
    expect(await readRolloutHead(fs, file('one.jsonl', headLine(ID, '/w', 10)))).toEqual({ id: ID, cwd: '/w' });
    expect(await readRolloutHead(fs, file('old.jsonl', `${JSON.stringify({ id: ID, timestamp: 't' })}\n`))).toEqual({ id: ID, cwd: null });
    expect(await readRolloutHead(fs, file('bad.jsonl', 'not json\n'))).toBeNull();
    expect(await readRolloutHead(fs, file('arr.jsonl', '[1,2]\n'))).toBeNull();
    expect(await readRolloutHead(fs, file('empty.jsonl', ''))).toBeNull();
    expect(await readRolloutHead(fs, join(dir, 'missing.jsonl'))).toBeNull();
  });
});

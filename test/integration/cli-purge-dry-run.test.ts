// `mam purge … --dry-run` prints the plan (text and --json), changes nothing, and exits with the code the purge would
// give; a named agent with nothing of the id exits 5 (unresolved), not 0.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { purgeCommand } from '../../src/cli/commands/purge.js';
import { treeSnapshot } from '../helpers/tree-snapshot.js';

let home: string;
let id: string;
let files: string[];

function capture(): { io: { stdout: (s: string) => void; stderr: (s: string) => void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: (s) => (out += s), stderr: (s) => (err += s) }, out: () => out, err: () => err };
}

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'mam-cli-dry-'));
  id = randomUUID();
  const root = join(home, '.gemini', 'antigravity-cli');
  files = [join(root, 'conversations', `${id}.db-wal`), join(root, 'annotations', `${id}.pbtxt`)];
  for (const f of files) {
    mkdirSync(join(f, '..'), { recursive: true });
    writeFileSync(f, 'x');
  }
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('mam purge --dry-run', () => {
  it('--json prints the plan (kind dry-run, reference strings, verdict, inUse) and changes nothing; exit 0', async () => {
    const before = treeSnapshot(home);
    const c = capture();
    expect(await purgeCommand(['auto', id, '--home', home, '--dry-run', '--json'], c.io)).toBe(0);
    const out = JSON.parse(c.out()) as Record<string, unknown>;
    expect(out).toMatchObject({ kind: 'dry-run', dryRun: true, agent: 'agy', id, verdict: 'purge', refused: [], inUse: false, otherAgents: [] });
    expect([...(out['wouldRemove'] as string[])].sort()).toEqual([...files].sort());
    expect(treeSnapshot(home)).toEqual(before);
    for (const f of files) expect(existsSync(f)).toBe(true);
  });

  it('text: one "would remove" line per artifact, nothing changed', async () => {
    const before = treeSnapshot(home);
    const c = capture();
    expect(await purgeCommand(['agy', id, '--home', home, '--dry-run'], c.io)).toBe(0);
    expect(c.out()).toMatch(/^dry run \(purge\): would remove 2 artifact\(s\) of agy conversation .*; nothing was changed\n/);
    for (const f of files) expect(c.out()).toContain(`would remove: ${f}\n`);
    expect(treeSnapshot(home)).toEqual(before);
  });

  // Issue 34: the dry run said "would remove: …" for every artifact even when the verdict meant nothing would be removed.
  it('in use: each artifact is "found (in-use: would not remove)", never "would remove"; exit 4', async () => {
    const holder = spawn(process.execPath, ['-e', 'console.log("ready"); setInterval(() => {}, 1e6)', '--', '--conversation', id], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => holder.stdout.once('data', resolve));
      const c = capture();
      expect(await purgeCommand(['agy', id, '--home', home, '--dry-run'], c.io)).toBe(4);
      expect(c.out()).toMatch(/^dry run \(in-use\): /);
      for (const f of files) expect(c.out()).toContain(`found (in-use: would not remove): ${f}\n`);
      expect(c.out()).not.toContain('would remove:');
      for (const f of files) expect(existsSync(f)).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('a named agent with nothing of the id: unresolved, exit 5 (dry run or not), nothing removed', async () => {
    const c = capture();
    expect(await purgeCommand(['codex', id, '--home', home, '--json'], c.io)).toBe(5);
    expect(JSON.parse(c.out())).toEqual({ kind: 'unresolved', agent: null, purged: [], residual: [], inUse: false });
    expect(await purgeCommand(['codex', id, '--home', home, '--dry-run', '--json'], capture().io)).toBe(5);
    for (const f of files) expect(existsSync(f)).toBe(true);
  });

  it('the purge itself still prints the reference keys with reference strings', async () => {
    const c = capture();
    expect(await purgeCommand(['auto', id, '--home', home, '--json'], c.io)).toBe(0);
    const out = JSON.parse(c.out()) as { kind: string; agent: string; purged: string[]; residual: string[]; inUse: boolean };
    expect(out).toMatchObject({ kind: 'purged', agent: 'agy', residual: [], inUse: false });
    expect([...out.purged].sort()).toEqual([...files].sort());
  });
});

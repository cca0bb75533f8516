// `mam doctor`: what inspectStores found, as text or JSON, read-only; exit 0 when every store present is known and has no
// problem, 1 when one has a problem (here: a moved CODEX_HOME, rows pointing outside it), 2 on misuse.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { hashTree } from '../helpers/adapter-codex-tree.js';
import { materializeStage } from '../helpers/real-stage.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
function temp(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-doctor-'));
  roots.push(r);
  return r;
}
function capture(): { io: { stdout: (s: string) => void; stderr: (s: string) => void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: (s) => (out += s), stderr: (s) => (err += s) }, out: () => out, err: () => err };
}

describe('mam doctor', () => {
  it('a real Codex home: known, counted, exit 0, nothing changed on disk', async () => {
    const s = materializeStage('codex/03-two-sessions', temp());
    const before = hashTree(s.home);
    const c = capture();
    expect(await doctorCommand(['--home', s.home, '--json'], c.io)).toBe(0);
    const doc = JSON.parse(c.out()) as { kind: string; home: string; reports: Array<{ agent: string; known: boolean | null; counts: Record<string, number> }> };
    expect(doc).toMatchObject({ kind: 'stores', home: s.home });
    expect(doc.reports.find((r) => r.agent === 'codex')).toMatchObject({ known: true, counts: { threads: 2, rollouts: 2 } });
    expect(hashTree(s.home)).toEqual(before);
    const text = capture();
    expect(await doctorCommand(['--home', s.home], text.io)).toBe(0);
    expect(text.out()).toContain('codex');
  });

  it('a moved Codex home: its problem is printed and the exit is 1', async () => {
    const s = materializeStage('codex/03-two-sessions', temp());
    const moved = join(s.root, 'moved');
    cpSync(s.home, moved, { recursive: true });
    const c = capture();
    expect(await doctorCommand(['--home', moved], c.io)).toBe(1);
    expect(c.out()).toMatch(/! /);
  });

  it('misuse: usage on stderr, exit 2; --help on stdout, exit 0', async () => {
    const bad = capture();
    expect(await doctorCommand(['--nope'], bad.io)).toBe(2);
    expect(bad.err()).toContain('usage: mam doctor');
    const help = capture();
    expect(await doctorCommand(['--help'], help.io)).toBe(0);
    expect(help.out()).toContain('usage: mam doctor');
  });
});

// Where the opencode adapter looks: the data dir (XDG_DATA_HOME only from the agent env), the database from
// `opencode debug paths` (kept per binary, HOME and XDG_DATA_HOME; a failure is not kept, a timeout only for the rest of
// one plan), the binary rule.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../src/agents/opencode/opencode-adapter.js';
import { locateOpencode } from '../../../src/agents/opencode/opencode-locate.js';
import { OpencodeLocator } from '../../../src/agents/opencode/opencode-locator.js';
import { PortError } from '../../../src/errors.js';
import { withBusyMemo } from '../../../src/sqlite/busy-memo.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { RunResult } from '../../../src/ports/process.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';

const fs = new NodeFileSystem();
let root: string;
let bin: string;
let home: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-loc-')));
  bin = join(root, 'bin');
  home = join(root, 'home');
  mkdirSync(bin);
  mkdirSync(home);
  writeFileSync(join(bin, 'opencode'), '#!/bin/sh\n');
  chmodSync(join(bin, 'opencode'), 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ok = (stdout: string): RunResult => ({ command: 'opencode debug paths', exitCode: 0, signal: null, stdout, stderr: '', durationMs: 1, timedOut: false, failed: false });
const failed: RunResult = { ...ok(''), exitCode: 1, failed: true };

function table(answers: Array<RunResult | 'throw'>, self: Record<string, string> = {}): FakeProcessTable {
  let i = 0;
  return new FakeProcessTable([], {
    self: { pid: 100, argv: ['node'], env: self },
    onRun: () => {
      const a = answers[Math.min(i++, answers.length - 1)];
      if (a === 'throw' || a === undefined) throw new PortError('CommandNotFound', 'proc.run', 'gone');
      return a;
    },
  });
}

describe('the data dir', () => {
  it('is XDG_DATA_HOME/opencode when the agent env sets it (absolute), else <home>/.local/share/opencode', async () => {
    const loc = new OpencodeLocator(fs, table([]));
    expect((await loc.locate(home, { XDG_DATA_HOME: '/xdg', PATH: '' }))?.dataDir).toBe('/xdg/opencode');
    expect((await loc.locate(home, { PATH: '' }))?.dataDir).toBe(join(home, '.local/share/opencode'));
    expect((await loc.locate(home, { XDG_DATA_HOME: 'rel/x', PATH: '' }))?.dataDir).toBe(join(home, '.local/share/opencode'));
    expect(await loc.locate('relative/home', {})).toBeNull();
  });

  it("follows the caller's XDG_DATA_HOME for the caller's own home only", async () => {
    const proc = table([], { HOME: home, XDG_DATA_HOME: join(root, 'xdg'), PATH: '' });
    const ports = { fs, proc, herdr: new FakeHerdr(), clock: new FakeClock() };
    // Where the adapter's store looks for a context (the location every OpenCode read starts from).
    const a = { where: (h: string) => locateOpencode(ports, { workspace: root, home: h }) };
    expect((await a.where(home))?.dataDir).toBe(join(root, 'xdg', 'opencode'));
    const other = join(root, 'other-home');
    mkdirSync(other, { recursive: true });
    expect((await a.where(other))?.dataDir).toBe(join(other, '.local/share/opencode'));
  });
});

describe('the database path', () => {
  it('comes from the db line of `opencode debug paths`, run with HOME, PATH and a timeout, and is kept', async () => {
    const proc = table([ok('db   /custom/oc.db\n')]);
    const loc = new OpencodeLocator(fs, proc);
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe('/custom/oc.db');
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe('/custom/oc.db');
    expect(proc.runs).toHaveLength(1);
    const run = proc.runs[0];
    expect(run?.file).toBe(join(bin, 'opencode'));
    expect(run?.args).toEqual(['debug', 'paths']);
    expect(run?.opts.env).toEqual({ HOME: home, PATH: bin });
    expect(run?.opts.timeoutMs).toBeGreaterThan(0);
  });

  it('is asked again for another HOME or XDG_DATA_HOME', async () => {
    const proc = table([ok('db /a.db\n'), ok('db /b.db\n'), ok('db /c.db\n')]);
    const loc = new OpencodeLocator(fs, proc);
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe('/a.db');
    expect((await loc.locate(home, { PATH: bin, XDG_DATA_HOME: '/x' }))?.dbPath).toBe('/b.db');
    expect((await loc.locate(join(root, 'h2'), { PATH: bin }))?.dbPath).toBe('/c.db');
    expect((await loc.locate(home, { PATH: bin, XDG_DATA_HOME: '/x' }))?.dbPath).toBe('/b.db');
    expect(proc.runs).toHaveLength(3);
    expect(proc.runs[1]?.opts.env?.['XDG_DATA_HOME']).toBe('/x');
  });

  it('never remembers a failure: a failed, timed-out or unstartable run falls back to the default and is retried', async () => {
    const proc = table([failed, { ...ok(''), timedOut: true, exitCode: null }, 'throw', ok('db /late.db\n')]);
    const loc = new OpencodeLocator(fs, proc);
    const dflt = join(home, '.local/share/opencode/opencode.db');
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe('/late.db');
    expect(proc.runs).toHaveLength(4);
  });

  it('a run that timed out is not waited for again in the same plan (withBusyMemo); the next plan asks again', async () => {
    const proc = table([{ ...ok(''), timedOut: true, exitCode: null }, ok('db /late.db\n')]);
    const loc = new OpencodeLocator(fs, proc);
    const dflt = join(home, '.local/share/opencode/opencode.db');
    await withBusyMemo(async () => {
      expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
      expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
      expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
    });
    expect(proc.runs).toHaveLength(1);
    expect(await withBusyMemo(async () => (await loc.locate(home, { PATH: bin }))?.dbPath)).toBe('/late.db');
    expect(proc.runs).toHaveLength(2);
  });

  it('a successful run without a db line (1.x) means the default path, and is kept', async () => {
    const proc = table([ok('data /somewhere\n')]);
    const loc = new OpencodeLocator(fs, proc);
    const dflt = join(home, '.local/share/opencode/opencode.db');
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
    expect((await loc.locate(home, { PATH: bin }))?.dbPath).toBe(dflt);
    expect(proc.runs).toHaveLength(1);
  });

  it('without an executable opencode nothing is run and the default path stands', async () => {
    const proc = table([ok('db /never.db\n')]);
    const loc = new OpencodeLocator(fs, proc);
    const noexec = join(root, 'noexec');
    mkdirSync(noexec, { recursive: true });
    writeFileSync(join(noexec, 'opencode'), 'x');
    expect((await loc.locate(home, { PATH: noexec }))?.binary).toBeNull();
    expect((await loc.locate(home, { PATH: `relative:${join(root, 'missing')}` }))?.dbPath).toBe(join(home, '.local/share/opencode/opencode.db'));
    expect(proc.runs).toHaveLength(0);
  });
});

describe('authOk', () => {
  const adapter = (self: Record<string, string> = {}) => new OpencodeAdapter({ fs, proc: table([], self), herdr: new FakeHerdr(), clock: new FakeClock() });
  it('is true for an executable opencode on the agent PATH or under <home>/.opencode/bin', async () => {
    expect(await adapter().authOk({ workspace: root, home: home, env: { PATH: bin } })).toBe(true);
    const h = join(root, 'home-bin');
    mkdirSync(join(h, '.opencode/bin'), { recursive: true });
    writeFileSync(join(h, '.opencode/bin/opencode'), '#!/bin/sh\n');
    chmodSync(join(h, '.opencode/bin/opencode'), 0o755);
    expect(await adapter().authOk({ workspace: root, home: h, env: { PATH: '' } })).toBe(true);
  });
  it('is false for a missing binary, a non-executable file or a directory', async () => {
    const h = join(root, 'home-bad');
    mkdirSync(join(h, '.opencode/bin/opencode'), { recursive: true });
    expect(await adapter().authOk({ workspace: root, home: h, env: { PATH: '' } })).toBe(false);
    const h2 = join(root, 'home-noexec');
    mkdirSync(join(h2, '.opencode/bin'), { recursive: true });
    writeFileSync(join(h2, '.opencode/bin/opencode'), 'x');
    expect(await adapter().authOk({ workspace: root, home: h2, env: { PATH: '' } })).toBe(false);
  });
});

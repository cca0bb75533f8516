// The argument check's stat of the home runs while a read-only method of a store-reads-only adapter (Codex, Hermes,
// Claude, Grok, agy) reads, but its answer still waits for the stat, and a bad home still rejects (Codex's discover and
// verify take no stat when their look at `<home>/.codex` finds it: the kernel walked through the home, a directory); every other method (a
// purge) touches nothing before the home is known a directory. OpenCode's read-only methods read alongside the stat too,
// but the one spawn they may make (`opencode debug paths`) waits for it, and a bad home spawns nothing.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { CodexAdapter } from '../../../src/agents/codex/codex-adapter.js';
import { GrokAdapter } from '../../../src/agents/grok/grok-adapter.js';
import { HermesAdapter } from '../../../src/agents/hermes/hermes-adapter.js';
import { OpencodeAdapter as OpenCodeAdapter } from '../../../src/agents/opencode/opencode-adapter.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { homeChecked, notePendingHomeCheck, requireDiscoveryContext } from '../../../src/validation/discovery-context.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { FileSystemPort } from '../../../src/ports/fs.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import type { RunResult } from '../../../src/ports/process.js';
import { sesId } from '../../helpers/adapter-opencode-db.js';
import { portsWith } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

const ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';

// The real disk, with the stat of `home` held until `release()` (with `firstOnly`, only the first: the argument check's),
// recording every call made before it settled.
function gatedFs(home: string, firstOnly = false): { fs: FileSystemPort; early: string[]; release: () => void; statSeen: Promise<void> } {
  const inner = new NodeFileSystem();
  const early: string[] = [];
  let open = false;
  let held = false;
  let release = (): void => undefined;
  let seen = (): void => undefined;
  const gate = new Promise<void>((r) => (release = () => ((open = true), r())));
  const statSeen = new Promise<void>((r) => (seen = r));
  const fs = new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'stat' && args[0] === home && !(firstOnly && held)) {
          held = true;
          seen();
          return gate.then(() => (value as (...a: unknown[]) => unknown).apply(target, args));
        }
        if (!open) early.push(`${String(prop)} ${String(args[0])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { fs, early, release, statSeen };
}

// The real disk, recording the path of every stat.
function statRecording(): { fs: NodeFileSystem; stats: string[] } {
  const stats: string[] = [];
  const inner = new NodeFileSystem();
  const fs = Object.assign(Object.create(inner) as NodeFileSystem, { stat: (p: string) => (stats.push(p), inner.stat(p)) });
  return { fs, stats };
}

const dirs: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await d();
});
async function tmp(): Promise<string> {
  const t = await makeTempDir('mam-home-alongside-');
  dirs.push(t.dispose);
  return t.dir;
}

describe('the home stat of the argument check', () => {
  it('runs while Codex discover reads a CODEX_HOME outside the home, and the answer waits for it', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(home);
    mkdirSync(join(root, 'codex-home'));
    const g = gatedFs(home);
    const codex = new CodexAdapter(portsWith(new FakeProcessTable([]), g.fs));
    let settled = false;
    const p = codex.discover({ workspace: root, home, env: { CODEX_HOME: join(root, 'codex-home') } }).then((r) => ((settled = true), r));
    await g.statSeen;
    await new Promise((r) => setTimeout(r, 50));
    expect(g.early.length).toBeGreaterThan(0);
    expect(settled).toBe(false);
    g.release();
    expect(await p).toEqual([]);
  });

  it('is not taken by Codex or Hermes discover, verifyArtifact and verifyMany when their look at <home>/.codex or <home>/.hermes finds it (the home proven a directory)', async () => {
    const cases = [
      { store: '.codex', id: ID, make: (fs: FileSystemPort) => new CodexAdapter(portsWith(new FakeProcessTable([]), fs)) },
      { store: '.hermes', id: '20260101_000000_abcdef', make: (fs: FileSystemPort) => new HermesAdapter(portsWith(new FakeProcessTable([]), fs)) },
    ];
    for (const { store, id, make } of cases) {
      const root = await tmp();
      const home = join(root, 'home');
      mkdirSync(join(home, store), { recursive: true });
      const { fs, stats } = statRecording();
      const adapter = make(fs);
      const ctx = { workspace: root, home, env: {} };
      expect(await adapter.discover(ctx)).toEqual([]);
      expect(await adapter.verifyArtifact(id, ctx)).toBe(false);
      expect(await adapter.verifyMany([{ id }], ctx)).toEqual([false]);
      expect(stats, store).not.toContain(home);
    }
  });

  it('a file or nothing as home still rejects every Hermes read with INVALID_ARGUMENT', async () => {
    const root = await tmp();
    writeFileSync(join(root, 'file'), 'x');
    const hermes = new HermesAdapter(portsWith(new FakeProcessTable([])));
    const id = '20260101_000000_abcdef';
    for (const home of [join(root, 'file'), join(root, 'absent')]) {
      const ctx = { workspace: root, home };
      await expect(hermes.discover(ctx)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(hermes.verifyArtifact(id, ctx)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(hermes.verifyMany([{ id }], ctx)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
  });

  it('is taken after Codex discover reads when <home>/.codex is missing, and the answer waits for it', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(home);
    const g = gatedFs(home);
    const codex = new CodexAdapter(portsWith(new FakeProcessTable([]), g.fs));
    let settled = false;
    const p = codex.discover({ workspace: root, home }).then((r) => ((settled = true), r));
    await g.statSeen;
    await new Promise((r) => setTimeout(r, 50));
    expect(g.early).toContain(`lstat ${join(home, '.codex')}`);
    expect(settled).toBe(false);
    g.release();
    expect(await p).toEqual([]);
  });

  it('a file or nothing as home still rejects every Codex read with INVALID_ARGUMENT (no look inside it succeeds)', async () => {
    const root = await tmp();
    writeFileSync(join(root, 'file'), 'x');
    const codex = new CodexAdapter(portsWith(new FakeProcessTable([])));
    for (const home of [join(root, 'file'), join(root, 'absent')]) {
      const ctx = { workspace: root, home };
      await expect(codex.discover(ctx)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(codex.verifyArtifact(ID, ctx)).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(codex.verifyMany([{ id: ID }], ctx)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
  });

  it('runs while Claude, Grok and agy verifyMany read, and each answer waits for it', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(home);
    for (const make of [(fs: FileSystemPort) => new ClaudeAdapter(portsWith(new FakeProcessTable([]), fs)), (fs: FileSystemPort) => new GrokAdapter(portsWith(new FakeProcessTable([]), fs)), (fs: FileSystemPort) => new AgyAdapter(portsWith(new FakeProcessTable([]), fs))]) {
      // The adapter's store module is loaded on first use: loaded before the gated call, so the call reads at once.
      await make(new NodeFileSystem()).verifyMany([{ id: '6f1f8f52-3c7e-4d0b-9a55-0c2f4b7e9a10' }], { workspace: root, home, env: {} });
      const g = gatedFs(home);
      let settled = false;
      const p = make(g.fs).verifyMany([{ id: '6f1f8f52-3c7e-4d0b-9a55-0c2f4b7e9a10' }], { workspace: root, home, env: {} }).then((r) => ((settled = true), r));
      await g.statSeen;
      await new Promise((r) => setTimeout(r, 50));
      expect(g.early.length).toBeGreaterThan(0);
      expect(settled).toBe(false);
      g.release();
      expect(await p).toEqual([false]);
    }
  });

  it('a file as home still rejects Claude, Grok and agy verifyMany with INVALID_ARGUMENT', async () => {
    const root = await tmp();
    const home = join(root, 'file');
    writeFileSync(home, 'x');
    const ports = portsWith(new FakeProcessTable([]));
    for (const a of [new ClaudeAdapter(ports), new GrokAdapter(ports), new AgyAdapter(ports)]) {
      await expect(a.verifyMany([{ id: '6f1f8f52-3c7e-4d0b-9a55-0c2f4b7e9a10' }], { workspace: root, home })).rejects.toBeInstanceOf(InvalidArgumentError);
    }
  });

  it('a file as home still rejects Codex verifyArtifact and Hermes discover with INVALID_ARGUMENT', async () => {
    const root = await tmp();
    const home = join(root, 'file');
    writeFileSync(home, 'x');
    const ports = portsWith(new FakeProcessTable([]));
    await expect(new CodexAdapter(ports).verifyArtifact(ID, { workspace: root, home })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(new HermesAdapter(ports).discover({ workspace: root, home })).rejects.toBeInstanceOf(InvalidArgumentError);
  });

  it('a purge touches nothing before the home is known a directory', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(join(home, '.codex'), { recursive: true });
    const g = gatedFs(home);
    const p = new CodexAdapter(portsWith(new FakeProcessTable([]), g.fs)).purgeArtifacts(ID, { workspace: root, home });
    p.catch(() => undefined);
    await g.statSeen;
    await new Promise((r) => setTimeout(r, 50));
    expect(g.early).toEqual([]);
    g.release();
    await p.catch(() => undefined);
  });

  it('OpenCode reads alongside the stat but spawns `opencode debug paths` only once the home is known a directory', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(home);
    const bin = opencodeOnPath(root);
    const proc = answering();
    // Only the argument check's stat is held: the locator's own look at the home (where to run) is not.
    const g = gatedFs(home, true);
    let settled = false;
    const p = new OpenCodeAdapter(portsWith(proc, g.fs)).discover({ workspace: root, home, env: { PATH: bin } }).then((r) => ((settled = true), r));
    await g.statSeen;
    await new Promise((r) => setTimeout(r, 50));
    expect(g.early.length).toBeGreaterThan(0);
    expect(proc.runs).toEqual([]);
    expect(settled).toBe(false);
    g.release();
    expect(await p).toEqual([]);
    expect(proc.runs).toHaveLength(1);
  });

  it('is not taken by OpenCode discover, verifyArtifact and verifyMany once the located database lies inside the home (its directory found)', async () => {
    const { home, data, proc, fs, stats, ctx } = await opencodeHome();
    const oc = new OpenCodeAdapter(portsWith(proc, fs));
    // The first call asks `opencode debug paths`, which waits for the home's stat; the answer is kept.
    expect(await oc.discover(ctx)).toEqual([]);
    expect(proc.runs).toHaveLength(1);
    stats.length = 0;
    expect(await oc.discover(ctx)).toEqual([]);
    expect(await oc.verifyArtifact(sesId(1), ctx)).toBe(false);
    expect(await oc.verifyMany([{ id: sesId(1) }], ctx)).toEqual([false]);
    expect(stats).not.toContain(home);
    expect(proc.runs).toHaveLength(1);
  });

  it('is not taken when the look at the database directory answers after the missing database made the read fail', async () => {
    const { home, data, proc, fs, stats, ctx } = await opencodeHome();
    // The directory's lstat answers 30 ms late: the database's own lstat (ENOENT) has failed the read long before.
    const lstat = fs.lstat.bind(fs);
    const slow = Object.assign(Object.create(fs) as NodeFileSystem, {
      stat: fs.stat,
      lstat: (p: string) => (p === data ? new Promise((r) => setTimeout(r, 30)).then(() => lstat(p)) : lstat(p)),
    });
    const oc = new OpenCodeAdapter(portsWith(proc, slow));
    expect(await oc.discover(ctx)).toEqual([]);
    stats.length = 0;
    expect(await oc.discover(ctx)).toEqual([]);
    expect(await oc.verifyArtifact(sesId(1), ctx)).toBe(false);
    expect(stats).not.toContain(home);
  });

  it('a file as home rejects every read-only OpenCode method with INVALID_ARGUMENT and spawns nothing', async () => {
    const root = await tmp();
    const home = join(root, 'file');
    writeFileSync(home, 'x');
    const bin = opencodeOnPath(root);
    const proc = answering();
    const oc = new OpenCodeAdapter(portsWith(proc));
    const ctx = { workspace: root, home, env: { PATH: bin } };
    const id = sesId(1);
    for (const call of [
      () => oc.discover(ctx),
      () => oc.verifyArtifact(id, ctx),
      () => oc.verifyMany([{ id }], ctx),
      () => oc.owns(id, ctx),
      () => oc.hasArtifacts(id, ctx),
    ]) {
      await expect(call()).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    // The reads that ran alongside the stat may still be finishing: give them time to (not) spawn.
    await new Promise((r) => setTimeout(r, 100));
    expect(proc.runs).toEqual([]);
  });
});

const OK: RunResult = { command: 'opencode debug paths', exitCode: 0, signal: null, stdout: 'data /x\n', stderr: '', durationMs: 1, timedOut: false, failed: false };

function answering(): FakeProcessTable {
  return new FakeProcessTable([], { self: { pid: 100, argv: ['node'], env: { PATH: '' } }, onRun: () => OK });
}

// An executable `opencode` (never run: the fake process table answers) in `<root>/bin`.
function opencodeOnPath(root: string): string {
  const bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'opencode'), '#!/bin/sh\n');
  chmodSync(join(bin, 'opencode'), 0o755);
  return bin;
}

describe('homeChecked', () => {
  it('stats the home of a context neither checked nor being checked, and rejects a file', async () => {
    const root = await tmp();
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    const fs = new NodeFileSystem();
    await expect(homeChecked(fs, { workspace: root, home: file })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(homeChecked(fs, { workspace: root, home: root })).resolves.toBeUndefined();
  });

  it('waits for a context checked already for nothing, and for one being checked for its check', async () => {
    const root = await tmp();
    const { fs, stats } = statRecording();
    const known = await requireDiscoveryContext(fs, { workspace: root, home: root });
    stats.length = 0;
    await homeChecked(fs, known);
    expect(stats).toEqual([]);
    const pending = { workspace: root, home: join(root, 'nope') };
    notePendingHomeCheck(pending, Promise.reject(new InvalidArgumentError('ctx.home', 'does not exist')));
    await expect(homeChecked(fs, pending)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(stats).toEqual([]);
  });
});

// A home with OpenCode's data directory (no database), a fake `opencode` on PATH whose `debug paths` names it, and a
// stat-recording filesystem.
async function opencodeHome() {
  const root = await tmp();
  const home = join(root, 'home');
  const data = join(home, '.local/share/opencode');
  mkdirSync(data, { recursive: true });
  const bin = opencodeOnPath(root);
  const proc = new FakeProcessTable([], { self: { pid: 100, argv: ['node'], env: { PATH: '' } }, onRun: () => ({ ...OK, stdout: `data ${data}\n` }) });
  return { home, data, proc, ...statRecording(), ctx: { workspace: root, home, env: { PATH: bin } } };
}

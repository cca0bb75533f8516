// The argument check's stat of the home runs while a read-only method of a store-reads-only adapter (Codex, Hermes,
// Claude, Grok, agy) reads, but its answer still waits for the stat, and a bad home still rejects; every other method (a purge) and every
// adapter that may spawn (OpenCode) touch nothing before the home is known a directory.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/adapters/agy/agy-adapter.js';
import { ClaudeAdapter } from '../../../src/adapters/claude/claude-adapter.js';
import { CodexAdapter } from '../../../src/adapters/codex/codex-adapter.js';
import { GrokAdapter } from '../../../src/adapters/grok/grok-adapter.js';
import { HermesAdapter } from '../../../src/adapters/hermes/hermes-adapter.js';
import { OpencodeAdapter as OpenCodeAdapter } from '../../../src/adapters/opencode/opencode-adapter.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { FileSystemPort } from '../../../src/ports/fs.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { portsWith } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

const ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';

// The real disk, with the stat of `home` held until `release()`, recording every call made before it settled.
function gatedFs(home: string): { fs: FileSystemPort; early: string[]; release: () => void; statSeen: Promise<void> } {
  const inner = new NodeFileSystem();
  const early: string[] = [];
  let open = false;
  let release = (): void => undefined;
  let seen = (): void => undefined;
  const gate = new Promise<void>((r) => (release = () => ((open = true), r())));
  const statSeen = new Promise<void>((r) => (seen = r));
  const fs = new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (prop === 'stat' && args[0] === home) {
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
  it('runs while Codex discover reads, and the answer waits for it', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(join(home, '.codex'), { recursive: true });
    const g = gatedFs(home);
    const codex = new CodexAdapter(portsWith(new FakeProcessTable([]), g.fs));
    let settled = false;
    const p = codex.discover({ workspace: root, home }).then((r) => ((settled = true), r));
    await g.statSeen;
    await new Promise((r) => setTimeout(r, 50));
    expect(g.early.length).toBeGreaterThan(0);
    expect(settled).toBe(false);
    g.release();
    expect(await p).toEqual([]);
  });

  it('runs while Claude, Grok and agy verifyMany read, and each answer waits for it', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(home);
    for (const make of [(fs: FileSystemPort) => new ClaudeAdapter(portsWith(new FakeProcessTable([]), fs)), (fs: FileSystemPort) => new GrokAdapter(portsWith(new FakeProcessTable([]), fs)), (fs: FileSystemPort) => new AgyAdapter(portsWith(new FakeProcessTable([]), fs))]) {
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

  it('a purge, and OpenCode (which may spawn), touch nothing before the home is known a directory', async () => {
    const root = await tmp();
    const home = join(root, 'home');
    mkdirSync(join(home, '.codex'), { recursive: true });
    for (const run of [
      (fs: FileSystemPort) => new CodexAdapter(portsWith(new FakeProcessTable([]), fs)).purgeArtifacts(ID, { workspace: root, home }),
      (fs: FileSystemPort) => new OpenCodeAdapter(portsWith(new FakeProcessTable([]), fs)).discover({ workspace: root, home }),
    ]) {
      const g = gatedFs(home);
      const p = run(g.fs);
      p.catch(() => undefined);
      await g.statSeen;
      await new Promise((r) => setTimeout(r, 50));
      expect(g.early).toEqual([]);
      g.release();
      await p.catch(() => undefined);
    }
  });
});

// purge('auto', id) resolution stats the home while the agents are asked (one stat, no second per adapter), but a bad
// home still rejects with INVALID_ARGUMENT, and OpenCode's `opencode debug paths` is never spawned for it.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { FileSystemPort } from '../../../src/ports/fs.js';
import type { RunResult } from '../../../src/ports/process.js';
import { PurgeService } from '../../../src/purge/purge-service.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { sesId } from '../../helpers/adapter-opencode-db.js';

let root: string;
let bin: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-resolve-home-')));
  bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'opencode'), '#!/bin/sh\n');
  chmodSync(join(bin, 'opencode'), 0o755);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OK: RunResult = { command: 'opencode debug paths', exitCode: 0, signal: null, stdout: 'data /x\n', stderr: '', durationMs: 1, timedOut: false, failed: false };

function service(fs: FileSystemPort = new NodeFileSystem()): { svc: PurgeService; proc: FakeProcessTable } {
  const proc = new FakeProcessTable([], { self: { pid: 100, argv: ['node'], env: { PATH: '' } }, onRun: () => OK });
  return { svc: new PurgeService({ ports: { fs, proc, herdr: new FakeHerdr(), clock: new FakeClock() } }), proc };
}

describe("purge('auto', id) resolution and the home check", () => {
  it('a file or a missing path as home rejects with INVALID_ARGUMENT and spawns nothing', async () => {
    const file = join(root, 'file');
    writeFileSync(file, 'x');
    for (const home of [file, join(root, 'missing')]) {
      const { svc, proc } = service();
      await expect(svc.resolve(sesId(1), { workspace: root, home, env: { PATH: bin } })).rejects.toBeInstanceOf(InvalidArgumentError);
      // The reads that ran alongside the stat may still be finishing: give them time to (not) spawn.
      await new Promise((r) => setTimeout(r, 100));
      expect(proc.runs).toEqual([]);
    }
  });

  it('stats a good home once for the resolution, and asks `debug paths` once it is known a directory', async () => {
    const home = join(root, 'home');
    mkdirSync(home, { recursive: true });
    const inner = new NodeFileSystem();
    const stats: string[] = [];
    const fs = Object.assign(Object.create(inner) as NodeFileSystem, { stat: (p: string) => (stats.push(p), inner.stat(p)) });
    const { svc, proc } = service(fs);
    expect(await svc.resolve(sesId(1), { workspace: root, home, env: { PATH: bin } })).toBeNull();
    // The argument check's stat, and the locator's own look at where to run the CLI (it runs once).
    expect(stats.filter((p) => p === home)).toHaveLength(2);
    expect(proc.runs).toHaveLength(1);
  });
});

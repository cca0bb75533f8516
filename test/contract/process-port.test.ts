import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { FakeProcessTable } from '../../src/testing/process/index.js';
import { deadPid, startSleeper, stopAll } from '../helpers/proc-children.js';
import { startZombie } from '../helpers/proc-zombie.js';
import { processPortContract, type ProcessPortFixture } from './process-port.contract.js';

async function realFixture(useProc: boolean): Promise<ProcessPortFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'mam-proc-contract-'));
  const heldPath = join(dir, 'held.lock');
  const unheldPaths = Array.from({ length: 12 }, (_, i) => join(dir, `unheld-${i}.db`));
  for (const p of [heldPath, ...unheldPaths]) await writeFile(p, 'x');
  const marker = `mam-marker-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const before = Date.now();
  const markerChild = await startSleeper({ marker });
  const after = Date.now();
  const holder = await startSleeper({ hold: heldPath });
  const idle = await startSleeper();
  const zombie = await startZombie();
  // A real `sleep` whose working directory is below the directory target (what a shell cd'd there looks like).
  const cwdDir = join(dir, 'conv');
  await mkdir(join(cwdDir, 'sub'), { recursive: true });
  await mkdir(join(cwdDir, 'other'));
  const cwdChild = spawn('sleep', ['60'], { cwd: join(cwdDir, 'sub'), stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 100));
  const port = new NodeProcessPort({ env: { ...process.env, MAM_CONTRACT: 'real' }, useProc });
  return {
    port,
    scenario: {
      marker,
      markerPid: markerChild.pid,
      markerPpid: process.pid,
      // btime in /proc/stat has whole seconds and ps prints whole seconds: allow two either side.
      markerStartWindow: [before - 2000, after + 2000],
      holderPid: holder.pid,
      heldPath,
      idlePid: idle.pid,
      unheldPaths,
      missingPath: join(dir, 'missing.db'),
      deadPid: await deadPid(),
      zombiePid: zombie.pid,
      zombieParentPid: zombie.parentPid,
      envVar: ['MAM_CONTRACT', 'real'],
      cwdPid: cwdChild.pid as number,
      cwdDir,
    },
    teardown: async () => {
      cwdChild.kill('SIGKILL');
      await zombie.release();
      await stopAll();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

if (existsSync('/proc/self/stat')) processPortContract('NodeProcessPort via /proc', () => realFixture(true));
processPortContract('NodeProcessPort via ps + lsof', () => realFixture(false));

processPortContract('FakeProcessTable', async () => {
  const dir = '/sandbox/tmp/mam-proc-contract';
  const heldPath = `${dir}/held.lock`;
  const self = { pid: 500, ppid: 400, argv: ['node', 'vitest'], startedAtMs: 1_700_000_000_000, env: { MAM_CONTRACT: 'fake' } };
  const port = new FakeProcessTable(
    [
      { pid: 1, argv: ['/sbin/init'], comm: 'init' },
      { pid: 400, ppid: 1, argv: ['bash'] },
      { pid: 501, ppid: 500, argv: ['/usr/bin/node', '-e', 'sleep', '--', '--marker', 'mam-marker-x'], startedAtMs: 1_700_000_001_000, startTicks: 42 },
      { pid: 502, ppid: 500, argv: ['/usr/bin/node', '-e', 'sleep'], openFiles: [heldPath], startedAtMs: 1_700_000_001_000 },
      { pid: 503, ppid: 500, argv: ['/usr/bin/node', '-e', 'sleep'], startedAtMs: 1_700_000_001_000 },
      { pid: 504, ppid: 500, argv: ['perl', '-e', 'fork'], startedAtMs: 1_700_000_001_000 },
      { pid: 505, ppid: 504, argv: ['perl', '-e', 'fork'], startedAtMs: 1_700_000_001_000, openFiles: [heldPath] },
      { pid: 506, ppid: 400, argv: ['sleep', '60'], startedAtMs: 1_700_000_001_000, cwd: `${dir}/conv/sub` },
    ],
    { self },
  );
  port.zombify(505);
  return {
    port,
    scenario: {
      marker: 'mam-marker-x',
      markerPid: 501,
      markerPpid: 500,
      markerStartWindow: [1_700_000_000_000, 1_700_000_002_000],
      holderPid: 502,
      heldPath,
      idlePid: 503,
      unheldPaths: Array.from({ length: 12 }, (_, i) => `${dir}/unheld-${i}.db`),
      missingPath: `${dir}/missing.db`,
      deadPid: 9999,
      zombiePid: 505,
      zombieParentPid: 504,
      envVar: ['MAM_CONTRACT', 'fake'],
      cwdPid: 506,
      cwdDir: `${dir}/conv`,
    },
  };
});

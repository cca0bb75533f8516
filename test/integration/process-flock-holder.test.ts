import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { startChild, startSleeper, stopAll, type TestChild } from '../helpers/proc-children.js';

const HAS_FLOCK = spawnSync('sh', ['-c', 'command -v flock'], { stdio: 'ignore' }).status === 0;

// The seed's lock holder: takes the presence lock with flock and names the conversation nowhere.
// `exec sleep` keeps fd 9 (and the lock on it) while the command line becomes `sleep 60`.
async function startFlockHolder(lock: string): Promise<TestChild> {
  if (!HAS_FLOCK) return startSleeper({ hold: lock });
  return startChild('sh', ['-c', 'exec 9<>"$MAM_TEST_LOCK" && flock -x 9 && echo ready && exec sleep 60'], { env: { ...process.env, MAM_TEST_LOCK: lock } });
}

describe('a lock held open by a process whose command line never names it', () => {
  let dir: string;
  let lock: string;
  let holder: TestChild;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mam-flock-'));
    await mkdir(join(dir, 'real-presence'));
    await symlink(join(dir, 'real-presence'), join(dir, 'presence'));
    lock = join(dir, 'presence', 'a1b2c3d4-0000-4000-8000-000000000001.lock');
    await writeFile(lock, '');
    holder = await startFlockHolder(join(dir, 'real-presence', 'a1b2c3d4-0000-4000-8000-000000000001.lock'));
  });
  afterAll(async () => {
    await stopAll();
    await rm(dir, { recursive: true, force: true });
  });

  it.runIf(HAS_FLOCK)('is really locked (a second flock -n fails)', () => {
    expect(spawnSync('flock', ['-n', lock, 'true']).status).toBe(1);
  });

  const ports: Array<[string, boolean]> = [['ps + lsof', false]];
  if (existsSync('/proc/self/stat')) ports.push(['/proc', true]);

  it.each(ports)('is found by holders() (%s) under the path as asked (through a link), though no command line names it', async (_label, useProc) => {
    const port = new NodeProcessPort({ useProc });
    const snap = await port.snapshot();
    expect(snap.find((p) => p.pid === holder.pid)).toBeDefined();
    expect(snap.filter((p) => p.command.includes('a1b2c3d4-0000-4000-8000-000000000001'))).toEqual([]);
    const found = await port.holders([join(dir, 'other.db'), lock]);
    expect(found.map((h) => h.pid)).toEqual([holder.pid]);
    expect(found[0]?.path).toBe(lock);
  });
});

// Eight processes each making 50 locked read-increment-write cycles on one counter lose no update. Split from
// lock.test.ts (the serial group, whose cases bound how long a process waits): this one bounds no wait, so it runs with
// the rest of the integration files.
import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useLockTestDir } from '../helpers/lock-children.js';

describe('cross-process lock with real processes', () => {
  const { dir, lockPath, child } = useLockTestDir();

  it('8 processes x 50 locked read-increment-write cycles lose no update', async () => {
    const counter = join(dir(), 'counter.txt');
    const workers = Array.from({ length: 8 }, () => child(['count', lockPath(), counter, '50']));
    const ends = await Promise.all(workers.map((w) => w.exit));
    expect(ends.map((e) => e.code), workers.map((w) => w.stderr()).join('\n')).toEqual(Array(8).fill(0));
    expect(await nfs.readFile(counter, 'utf8')).toBe('400');
    expect((await nfs.readdir(dir())).sort()).toEqual(['counter.txt', 'registry.lock']);
  });
});

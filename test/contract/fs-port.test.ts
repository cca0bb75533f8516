import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortError } from '../../src/errors.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { RecordingFileSystem } from '../../src/testing/fs/index.js';
import { expectPortError, makeTempDir } from '../helpers/fs-temp.js';
import { fsPortContract } from './fs-port.contract.js';
import { fsPortNoLinkContract } from './fs-port-no-link.contract.js';

fsPortContract('NodeFileSystem', () => new NodeFileSystem());
fsPortContract('RecordingFileSystem(NodeFileSystem)', () => new RecordingFileSystem(new NodeFileSystem()));
// The fallback of the platforms without /proc/self/fd (macOS), forced here so Linux CI runs it too.
fsPortContract('NodeFileSystem({ procFd: false })', () => new NodeFileSystem({ procFd: false }));
fsPortNoLinkContract('NodeFileSystem', () => new NodeFileSystem());
fsPortNoLinkContract('RecordingFileSystem(NodeFileSystem)', () => new RecordingFileSystem(new NodeFileSystem()));

describe('RecordingFileSystem specifics', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-rec-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('records every mutation in call order with path and destination, and no reads', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem());
    await fs.mkdir(join(dir, 'a'));
    await fs.writeFile(join(dir, 'a', 'f'), 'x');
    await fs.readFile(join(dir, 'a', 'f'));
    await fs.readdir(dir);
    await fs.copyFile(join(dir, 'a', 'f'), join(dir, 'a', 'g'));
    await fs.rename(join(dir, 'a', 'g'), join(dir, 'a', 'h'));
    await fs.symlink('h', join(dir, 'a', 'l'));
    await fs.unlink(join(dir, 'a', 'l'));
    const made = await fs.mkdtemp(join(dir, 'tmp-'));
    await fs.rmdir(made);
    await fs.fsyncDir(dir);
    expect(fs.mutations).toEqual([
      { op: 'mkdir', path: join(dir, 'a') },
      { op: 'writeFile', path: join(dir, 'a', 'f') },
      { op: 'copyFile', path: join(dir, 'a', 'f'), to: join(dir, 'a', 'g') },
      { op: 'rename', path: join(dir, 'a', 'g'), to: join(dir, 'a', 'h') },
      { op: 'symlink', path: join(dir, 'a', 'l'), to: 'h' },
      { op: 'unlink', path: join(dir, 'a', 'l') },
      { op: 'mkdtemp', path: made },
      { op: 'rmdir', path: made },
    ]);
  });

  it('records a mutation the inner port rejects, too', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem());
    await expectPortError(fs.unlink(join(dir, 'missing')), 'NotFound');
    expect(fs.mutations).toEqual([{ op: 'unlink', path: join(dir, 'missing') }]);
  });

  it.each([
    ['EACCES', 'PermissionDenied'],
    ['EBUSY', 'Busy'],
    ['ENOSPC', 'NoSpace'],
    ['EIO', 'IoError'],
  ] as const)('failAt n injects %s as the PortError %s, without touching the disk', async (errno, code) => {
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: { n: 2, code: errno } });
    await fs.writeFile(join(dir, 'one'), '1');
    const err = await expectPortError(fs.writeFile(join(dir, 'two'), '2'), code);
    expect(err).toBeInstanceOf(PortError);
    expect(err.op).toBe('fs.writeFile');
    expect(err.path).toBe(join(dir, 'two'));
    expect(err.data['errno']).toBe(errno);
    expect(err.message).toContain(errno);
    await fs.writeFile(join(dir, 'three'), '3');
    expect((await nfs.readdir(dir)).sort()).toEqual(['one', 'three']);
    expect(fs.mutations.map((m) => m.fault)).toEqual([undefined, errno, undefined]);
  });

  it('a predicate decides faults from the mutation and its number', async () => {
    const seen: number[] = [];
    const fs = new RecordingFileSystem(new NodeFileSystem(), {
      failAt: (m, n) => {
        seen.push(n);
        return m.op === 'unlink' ? 'EBUSY' : undefined;
      },
    });
    await fs.writeFile(join(dir, 'f'), 'x');
    await expectPortError(fs.unlink(join(dir, 'f')), 'Busy');
    await fs.rename(join(dir, 'f'), join(dir, 'g'));
    expect(seen).toEqual([1, 2, 3]);
    expect(await nfs.readdir(dir)).toEqual(['g']);
  });

  it('a faulted mkdtemp keeps the prefix as its path and creates nothing', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: { n: 1, code: 'ENOSPC' } });
    await expectPortError(fs.mkdtemp(join(dir, 'job-')), 'NoSpace');
    expect(fs.mutations).toEqual([{ op: 'mkdtemp', path: join(dir, 'job-'), fault: 'ENOSPC' }]);
    expect(await nfs.readdir(dir)).toEqual([]);
  });
});

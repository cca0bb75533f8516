import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanStaleTemps, writeFileAtomic } from '../../../src/atomic/index.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { RecordingFileSystem } from '../../../src/testing/fs/index.js';
import { withOverrides } from '../../helpers/fs-overrides.js';
import { expectPortError, makeTempDir } from '../../helpers/fs-temp.js';

const TEMP = /^\.target\.json\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;

describe('writeFileAtomic', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  let target: string;
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-atomic-'));
    target = join(dir, 'target.json');
  });
  afterEach(async () => {
    await dispose();
  });

  it('writes a synced temp in the same dir, renames it over the target, then fsyncs the dir', async () => {
    const calls: string[] = [];
    const inner = new NodeFileSystem();
    const fs = new RecordingFileSystem(inner);
    const spy = withOverrides(fs, {
      fsyncDir: async (p: string) => {
        calls.push(`fsyncDir ${p}`);
        await inner.fsyncDir(p);
      },
      writeFile: async (p, d, o) => {
        calls.push(`writeFile ${JSON.stringify(o)}`);
        await fs.writeFile(p, d, o);
      },
    });
    await writeFileAtomic(spy, target, 'new');
    expect(await nfs.readFile(target, 'utf8')).toBe('new');
    expect(fs.mutations.map((m) => m.op)).toEqual(['writeFile', 'rename']);
    const [write, rename] = fs.mutations;
    expect(write?.path.startsWith(`${dir}/`)).toBe(true);
    expect(TEMP.test(write?.path.slice(dir.length + 1) ?? '')).toBe(true);
    expect(rename).toEqual({ op: 'rename', path: write?.path, to: target });
    expect(calls).toEqual(['writeFile {"exclusive":true,"noLink":true,"sync":true}', `fsyncDir ${dir}`]);
    expect(await nfs.readdir(dir)).toEqual(['target.json']);
  });

  it('replaces an existing file and keeps its mode', async () => {
    await nfs.writeFile(target, 'old', { mode: 0o640 });
    await nfs.chmod(target, 0o640);
    await writeFileAtomic(new NodeFileSystem(), target, new TextEncoder().encode('newer'));
    expect(await nfs.readFile(target, 'utf8')).toBe('newer');
    expect((await nfs.stat(target)).mode & 0o777).toBe(0o640);
  });

  it('uses an explicit mode for a new file', async () => {
    await writeFileAtomic(new NodeFileSystem(), target, 'x', { mode: 0o600 });
    expect((await nfs.stat(target)).mode & 0o777).toBe(0o600);
  });

  it.each([1, 2] as const)('a fault at mutation %i leaves the old file and no temp, and rejects with the PortError', async (n) => {
    await nfs.writeFile(target, 'old');
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: { n, code: 'ENOSPC' } });
    const err = await expectPortError(writeFileAtomic(fs, target, 'new'), 'NoSpace');
    expect(err.op).toBe(n === 1 ? 'fs.writeFile' : 'fs.rename');
    expect(await nfs.readFile(target, 'utf8')).toBe('old');
    expect(await nfs.readdir(dir)).toEqual(['target.json']);
    // The temp is unlinked whatever step failed (a failed write may have left part of it).
    expect(fs.mutations.map((m) => m.op)).toEqual(n === 1 ? ['writeFile', 'unlink'] : ['writeFile', 'rename', 'unlink']);
    expect(fs.mutations.at(-1)?.path).toBe(fs.mutations[0]?.path);
  });

  it('NotFound when the directory is missing', async () => {
    await expectPortError(writeFileAtomic(new NodeFileSystem(), join(dir, 'no', 'x'), 'x'), 'NotFound');
  });
});

describe('cleanStaleTemps', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-temps-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('removes only regular files named like the temps of that base', async () => {
    const uuid = '0b7c6a3e-1d2f-4a5b-8c9d-0e1f2a3b4c5d';
    for (const name of ['target.json', `.target.json.${uuid}.tmp`, `.other.json.${uuid}.tmp`, '.target.json.nope.tmp', `.targetXjson.${uuid}.tmp`]) {
      await nfs.writeFile(join(dir, name), 'x');
    }
    await nfs.mkdir(join(dir, `.target.json.${uuid.replace('0b', '1b')}.tmp`));
    const removed = await cleanStaleTemps(new NodeFileSystem(), dir, 'target.json');
    expect(removed).toEqual([join(dir, `.target.json.${uuid}.tmp`)]);
    expect((await nfs.readdir(dir)).length).toBe(5);
  });

  it('spares temps modified at or after modifiedBeforeMs', async () => {
    const name = '.t.0b7c6a3e-1d2f-4a5b-8c9d-0e1f2a3b4c5d.tmp';
    await nfs.writeFile(join(dir, name), 'x');
    const { mtimeMs } = await nfs.stat(join(dir, name));
    expect(await cleanStaleTemps(new NodeFileSystem(), dir, 't', { modifiedBeforeMs: mtimeMs })).toEqual([]);
    expect(await cleanStaleTemps(new NodeFileSystem(), dir, 't', { modifiedBeforeMs: mtimeMs + 1 })).toEqual([join(dir, name)]);
  });
});

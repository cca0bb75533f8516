import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PortError } from '../../../src/errors.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { confinedCheck } from '../../../src/paths/index.js';
import { layout } from '../../helpers/fs-layout.js';
import { withOverrides } from '../../helpers/fs-overrides.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

describe('confinedCheck', () => {
  const fs = new NodeFileSystem();
  let t: string;
  let dispose: () => Promise<void>;
  let root: string;
  const r = (...parts: string[]): string => join(root, ...parts);

  beforeAll(async () => {
    ({ dir: t, dispose } = await makeTempDir('mam-confined-'));
    root = join(t, 'root');
    await layout(t, {
      'root/a/b/file': 'x',
      'root/file': 'y',
      'root/a/out-dir': { link: join(t, 'outside') },
      'root/a/in-dir': { link: join(t, 'root', 'a', 'b') },
      'root/leaf-link': { link: join(t, 'outside', 'secret') },
      'outside/secret': 's',
      'root-link': { link: join(t, 'root') },
    });
  });
  afterAll(async () => {
    await dispose();
  });

  it('ok for a file, a dir and a leaf link below the root, with the leaf kind', async () => {
    expect(await confinedCheck(fs, root, r('a', 'b', 'file'))).toEqual({ kind: 'ok', path: r('a', 'b', 'file'), leaf: 'file' });
    expect(await confinedCheck(fs, root, r('a', 'b'))).toEqual({ kind: 'ok', path: r('a', 'b'), leaf: 'dir' });
    expect(await confinedCheck(fs, root, r('leaf-link'))).toEqual({ kind: 'ok', path: r('leaf-link'), leaf: 'symlink' });
    expect(await confinedCheck(fs, root, r('a', 'out-dir'))).toEqual({ kind: 'ok', path: r('a', 'out-dir'), leaf: 'symlink' });
  });

  it('behind-link when a component is a link, whether it points outside or inside', async () => {
    expect(await confinedCheck(fs, root, r('a', 'out-dir', 'secret'))).toEqual({ kind: 'behind-link', link: r('a', 'out-dir') });
    expect(await confinedCheck(fs, root, r('a', 'in-dir', 'file'))).toEqual({ kind: 'behind-link', link: r('a', 'in-dir') });
  });

  it('outside for the root itself, paths not below it, and .. escapes', async () => {
    expect(await confinedCheck(fs, root, root)).toEqual({ kind: 'outside' });
    expect(await confinedCheck(fs, root, `${root}/`)).toEqual({ kind: 'outside' });
    expect(await confinedCheck(fs, root, r('a', '..'))).toEqual({ kind: 'outside' });
    expect(await confinedCheck(fs, root, join(t, 'outside', 'secret'))).toEqual({ kind: 'outside' });
    expect(await confinedCheck(fs, root, `${root}/a/../../outside/secret`)).toEqual({ kind: 'outside' });
    expect(await confinedCheck(fs, root, 'root/file')).toEqual({ kind: 'outside' });
    expect(await confinedCheck(fs, `${root}-other`, r('file'))).toEqual({ kind: 'outside' });
  });

  it('normalizes a .. that stays inside and checks the normalized path', async () => {
    expect(await confinedCheck(fs, root, `${root}/a/../file`)).toEqual({ kind: 'ok', path: r('file'), leaf: 'file' });
  });

  it('missing for absent leaves, absent components, a file used as a dir, and an absent root', async () => {
    expect(await confinedCheck(fs, root, r('nope'))).toEqual({ kind: 'missing' });
    expect(await confinedCheck(fs, root, r('nope', 'x'))).toEqual({ kind: 'missing' });
    expect(await confinedCheck(fs, root, r('file', 'x'))).toEqual({ kind: 'missing' });
    expect(await confinedCheck(fs, join(t, 'no-root'), join(t, 'no-root', 'x'))).toEqual({ kind: 'missing' });
  });

  it('accepts a root that is itself a link', async () => {
    const viaLink = join(t, 'root-link');
    expect(await confinedCheck(fs, viaLink, join(viaLink, 'a', 'b', 'file'))).toEqual({
      kind: 'ok',
      path: join(viaLink, 'a', 'b', 'file'),
      leaf: 'file',
    });
  });

  it('outside when the parent resolves outside the resolved root even though every component looked like a dir', async () => {
    const lying = withOverrides(fs, {
      realpath: async (p: string) => (p === r('a', 'b') ? join(t, 'outside') : fs.realpath(p)),
    });
    expect(await confinedCheck(lying, root, r('a', 'b', 'file'))).toEqual({ kind: 'outside' });
  });

  it('rejects with the PortError of an unexpected lstat failure', async () => {
    const denied = withOverrides(fs, {
      lstat: async (p: string) => {
        throw new PortError('PermissionDenied', 'fs.lstat', 'EACCES', { path: p, errno: 'EACCES' });
      },
    });
    await expect(confinedCheck(denied, root, r('a', 'b', 'file'))).rejects.toMatchObject({ code: 'PermissionDenied' });
  });
});

// Grok's sameDirectory (the workspace resolved once per call) answers as directoryMatcher for any recorded path: spelled
// as given, as real, through a link, with `..` or a trailing slash, relative, missing, with a NUL.
import fc from 'fast-check';
import { mkdirSync, symlinkSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directoryMatcher } from '../../../../src/agents/common/same-directory.js';
import { sameDirectory } from '../../../../src/agents/grok/grok-workspace-buckets.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-same-dir-'));
  mkdirSync(join(dir, 'real', 'ws', 'sub'), { recursive: true });
  mkdirSync(join(dir, 'other'));
  symlinkSync(join(dir, 'real'), join(dir, 'link'));
  symlinkSync(join(dir, 'real', 'ws'), join(dir, 'ws-link'));
});
afterAll(() => dispose());

describe('grok: sameDirectory', () => {
  it('answers as directoryMatcher for every workspace and recorded path', async () => {
    const fs = new NodeFileSystem();
    const parts = ['real', 'link', 'ws', 'ws-link', 'sub', 'other', '..', '.', 'missing', ''];
    const path = fc.tuple(fc.boolean(), fc.array(fc.constantFrom(...parts), { maxLength: 4 }), fc.boolean()).map(([abs, ps, nul]) => `${abs ? `${dir}/` : ''}${ps.join('/')}${nul ? '\0x' : ''}`);
    await fc.assert(
      fc.asyncProperty(path, fc.array(path, { minLength: 1, maxLength: 6 }), async (workspace, recorded) => {
        const want = await directoryMatcher(fs, workspace);
        const given = isAbsolute(workspace) ? resolve(workspace) : workspace;
        const real = await fs.realpath(given).catch(() => given);
        const got = sameDirectory(fs, given, real);
        for (const r of recorded) expect(await got.matches(r)).toBe(await want.matches(r));
      }),
      { numRuns: 200 },
    );
  });
});

// The runtime export list of each entry point, pinned, so the public surface never grows (or shrinks) by accident.
// After a deliberate change: `npx vitest run test/unit/package/export-lists.test.ts -u`, review the diff, add a CHANGELOG
// line. scripts/check-package.mjs compares the built tarball's lists with the same files. (Types: etc/*.api.md.)
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportNames } from '../../../scripts/export-names.mjs';
import { SUBPATH_NAMES } from '../../../tsup.config.js';

const ROOT = join(import.meta.dirname, '../../..');
const names = (m: object): string => `${Object.keys(m).filter((k) => k !== 'default').sort().join('\n')}\n`;

describe('export lists', () => {
  it('@mam/core', async () => {
    await expect(names(await import('../../../src/index.js'))).toMatchFileSnapshot('./export-lists/core.txt');
  });

  it('@mam/core/testing', async () => {
    await expect(names(await import('../../../src/testing/index.js'))).toMatchFileSnapshot('./export-lists/testing.txt');
  });

  it.each(SUBPATH_NAMES)('@mam/core/%s', async (name) => {
    await expect(names(await import(`../../../src/entries/${name}.ts`))).toMatchFileSnapshot(`./export-lists/${name}.txt`);
  });

  it('the root is the documented front door: under 250 names, types included', () => {
    const all = exportNames(join(ROOT, 'src/index.ts'));
    expect(all.length).toBeLessThan(250);
  });

  it('internals named by the issue are not in the root', async () => {
    const root = await import('../../../src/index.js');
    for (const internal of ['quoteIdent', 'tableNames', 'userVersion', 'markIdOrderTokenLive', 'objectOrUndefined', 'BaseAdapter', 'detectWalState', 'HerdrCommandPort']) {
      expect(Object.keys(root)).not.toContain(internal);
    }
  });
});

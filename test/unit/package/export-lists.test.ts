// The runtime export list of each entry point, pinned, so the public surface never grows (or shrinks) by accident.
// After a deliberate change: `npx vitest run test/unit/package/export-lists.test.ts -u`, review the diff, add a CHANGELOG
// line. scripts/check-package.mjs compares the built tarball's lists with the same files. (Types: etc/*.api.md.)
import { describe, expect, it } from 'vitest';

const names = (m: object): string => `${Object.keys(m).filter((k) => k !== 'default').sort().join('\n')}\n`;

describe('export lists', () => {
  it('@mam/core', async () => {
    await expect(names(await import('../../../src/index.js'))).toMatchFileSnapshot('./export-lists/core.txt');
  });

  it('@mam/core/testing', async () => {
    await expect(names(await import('../../../src/testing/index.js'))).toMatchFileSnapshot('./export-lists/testing.txt');
  });

  it('internals named by the issue are not in the root', async () => {
    const root = await import('../../../src/index.js');
    for (const internal of ['quoteIdent', 'tableNames', 'userVersion', 'markIdOrderTokenLive', 'objectOrUndefined']) {
      expect(Object.keys(root)).not.toContain(internal);
    }
  });
});

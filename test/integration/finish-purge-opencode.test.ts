// Regression (issue 31): a purge of an OpenCode session stopped after its row deletes committed and before the dead-copy
// rebuild left copies of the session's text in opencode.db's pages, and every rerun answered "unresolved" (exit 5): no
// command could finish the job. The row lookup now reports the old copies when no row names the id, and the purge wipes
// them. The every-step sweep is test/slow/finish-purge-steps.test.ts.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { scratch, streamedOpencode } from '../helpers/finish-stages.js';
import { interruptingFs, purgeWith, unreportedCopies, withHolders } from '../helpers/finish-interrupt.js';

afterAll(() => {
  for (const r of scratch.splice(0)) rmSync(r, { recursive: true, force: true });
});

const ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const OTHER = 'ses_dd615360cffeFzbK9W1oQVbVv9';

describe('finishing an interrupted OpenCode purge', () => {
  it('a rerun after a purge killed before the dead-copy rebuild finishes it (opencode)', async () => {
    const { db, home, opts } = streamedOpencode();
    await withHolders([db], async () => {
      // The dead-copy pass's first step is a search of the file's bytes: the row deletes are committed by then.
      const cut = interruptingFs([db], 1, 'readFile');
      const first = await purgeWith(cut.fs, 'opencode', ID, opts);
      expect(cut.fired()).toBe(true);
      // The rows are gone but their copies are not: the first run says it is partly done (issue 31), never purged.
      expect(first).toMatchObject({ kind: 'partial' });
      expect(unreportedCopies(home, ID, first)).not.toEqual([]);
      const rerun = await purgeWith(interruptingFs([], 0).fs, 'opencode', ID, opts);
      expect(rerun).toMatchObject({ kind: 'purged', residual: [] });
      if (rerun.kind === 'purged') expect(rerun.purged).toEqual([expect.objectContaining({ kind: 'rows', db, table: DEAD_COPIES_TABLE })]);
      expect(unreportedCopies(home, ID, rerun)).toEqual([]);
    });
  });
});

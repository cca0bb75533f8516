// Regression (issue 31): the real Codex 0.171.0 left the purged id in the freed pages of thread_history_1.sqlite (3 hits,
// not SQL-visible): the dead-copy pass was built for OpenCode only. Codex writes its databases without secure_delete, so
// its own updates (items rewritten as a turn streams, projection state moved on, items deleted and projected again) leave
// old copies of a thread's rows in the unused space of shared pages and in free pages. Every Codex database a purge
// deletes rows from now goes through the one pass, and a rerun after an interrupted purge finishes it.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { scratch, streamedCodex } from '../helpers/finish-stages.js';
import { filesContaining, interruptingFs, purgeWith, unreportedCopies, withHolders } from '../helpers/finish-interrupt.js';

afterAll(() => {
  for (const r of scratch.splice(0)) rmSync(r, { recursive: true, force: true });
});

const ID = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const OTHER = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';

describe('finishing Codex purges', () => {
  it("codex purge leaves no copy of the id in thread_history_1's free pages", async () => {
    const { history, home, opts } = streamedCodex();
    const result = await purgeWith(interruptingFs([], 0).fs, 'codex', ID, opts);
    expect(result).toMatchObject({ kind: 'purged', residual: [] });
    if (result.kind === 'purged') expect(result.notes).toEqual([]);
    expect(unreportedCopies(home, ID, result)).toEqual([]);
    expect(filesContaining(home, OTHER).some((f) => f.startsWith(history))).toBe(true);
    const c = new Database(history, { readonly: true });
    expect(c.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(c.prepare('SELECT count(*) FROM thread_items WHERE thread_id = ?').pluck().get(OTHER)).toBeGreaterThan(0);
    c.close();
  });

  it('a rerun after a codex purge killed before the dead-copy pass finishes it', async () => {
    const { history, state, home, opts } = streamedCodex();
    await withHolders([history, state], async () => {
      // The pass's first step on thread_history_1 is a search of its bytes: its row delete is committed by then.
      const cut = interruptingFs([history], 1, 'readFile');
      await purgeWith(cut.fs, 'codex', ID, opts);
      expect(cut.fired()).toBe(true);
      expect(filesContaining(home, ID).some((f) => f.startsWith(history))).toBe(true);
      const rerun = await purgeWith(interruptingFs([], 0).fs, 'codex', ID, opts);
      expect(rerun).toMatchObject({ kind: 'purged', residual: [] });
      if (rerun.kind === 'purged') expect(rerun.purged).toEqual([expect.objectContaining({ kind: 'rows', db: history, table: DEAD_COPIES_TABLE })]);
      expect(unreportedCopies(home, ID, rerun)).toEqual([]);
    });
  });
});

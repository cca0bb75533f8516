// Regression (issue 31): Hermes writes state.db without secure_delete, so its own updates (a session row rewritten as
// its counters and title change, messages rewritten and deleted) leave old copies of a conversation's rows in the unused
// space of shared pages and in free pages; the purge's secure_delete never reaches them, and the dead-copy pass was
// built for OpenCode only. Hermes' purge now runs the one pass, and a rerun after an interrupted purge finishes it.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { IDS } from '../helpers/adapter-hermes-real.js';
import { scratch, streamedHermes } from '../helpers/finish-stages.js';
import { filesContaining, interruptingFs, purgeWith, unreportedCopies, withHolders } from '../helpers/finish-interrupt.js';

afterAll(() => {
  for (const r of scratch.splice(0)) rmSync(r, { recursive: true, force: true });
});

const ID = IDS.a1;
const OTHER = IDS.a2;

describe('finishing Hermes purges', () => {
  it("hermes purge leaves no copy of the id in state.db's pages", async () => {
    const { db, root, opts } = streamedHermes();
    const result = await purgeWith(interruptingFs([], 0).fs, 'hermes', ID, opts);
    if (result.kind === 'purged') expect(result.notes.filter((n) => n.includes('old copies'))).toEqual([]);
    expect(result).toMatchObject({ kind: 'purged', residual: [] });
    expect(unreportedCopies(root, ID, result)).toEqual([]);
    expect(filesContaining(root, OTHER)).toContain(db);
    const c = new Database(db, { readonly: true });
    expect(c.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(c.prepare("SELECT count(*) FROM messages_fts WHERE messages_fts MATCH 'other'").pluck().get()).toBeGreaterThan(0);
    c.close();
  });

  it('a rerun after a hermes purge killed before the dead-copy pass finishes it', async () => {
    const { db, root, opts } = streamedHermes();
    await withHolders([db], async () => {
      // The pass's first step is a search of state.db's bytes: the row delete is committed by then.
      const cut = interruptingFs([db], 1, 'readFile');
      await purgeWith(cut.fs, 'hermes', ID, opts);
      expect(cut.fired()).toBe(true);
      expect(filesContaining(root, ID)).toContain(db);
      const rerun = await purgeWith(interruptingFs([], 0).fs, 'hermes', ID, opts);
      expect(rerun).toMatchObject({ kind: 'purged', residual: [] });
      if (rerun.kind === 'purged') expect(rerun.purged).toEqual([expect.objectContaining({ kind: 'rows', db, table: DEAD_COPIES_TABLE })]);
      expect(unreportedCopies(root, ID, rerun)).toEqual([]);
    });
  });
});

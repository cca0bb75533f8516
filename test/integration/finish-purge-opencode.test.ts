// Regression (issue 31): a purge of an OpenCode session stopped after its row deletes committed and before the dead-copy
// rebuild left copies of the session's text in opencode.db's pages, and every rerun answered "unresolved" (exit 5): no
// command could finish the job. The row lookup now reports the old copies when no row names the id, and the purge wipes
// them. The every-step sweep is test/slow/finish-purge-steps.test.ts.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { materializeStage } from '../helpers/real-stage.js';
import { interruptingFs, purgeWith, unreportedCopies, withHolders } from '../helpers/finish-interrupt.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const OTHER = 'ses_dd615360cffeFzbK9W1oQVbVv9';

/** The real two-session store after a streaming turn of each session (parts rewritten as they grow, no secure_delete). */
export function streamedOpencode(): { db: string; home: string; opts: { home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-oc-finish-'));
  roots.push(root);
  const s = materializeStage('opencode/03-two-sessions-before-delete', root);
  const db = join(s.home, '.local/share/opencode/opencode.db');
  const w = new Database(db);
  w.pragma('journal_mode = WAL');
  const msg = (sid: string) => w.prepare('SELECT id FROM message WHERE session_id = ? LIMIT 1').pluck().get(sid) as string;
  const ins = w.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 1, 1, ?)');
  const upd = w.prepare('UPDATE part SET data = ? WHERE id = ?');
  for (let i = 0; i < 40; i++) {
    for (const sid of [ID, OTHER]) ins.run(`prt_${sid}_${i}`, msg(sid), sid, JSON.stringify({ sessionID: sid, text: '' }));
    for (let n = 1; n <= 6; n++) upd.run(JSON.stringify({ sessionID: ID, text: `streamed ${'x'.repeat(n * 60)}` }), `prt_${ID}_${i}`);
  }
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  return { db, home: s.home, opts: { home: s.home, env: { ...s.env, PATH: '' } } };
}

describe('finishing an interrupted OpenCode purge', () => {
  it('a rerun after a purge killed before the dead-copy rebuild finishes it (opencode)', async () => {
    const { db, home, opts } = streamedOpencode();
    await withHolders([db], async () => {
      // The dead-copy pass's first step is a search of the file's bytes: the row deletes are committed by then.
      const cut = interruptingFs([db], 1, 'readFile');
      const first = await purgeWith(cut.fs, 'opencode', ID, opts);
      expect(cut.fired()).toBe(true);
      expect(first).toMatchObject({ kind: 'purged' });
      expect(unreportedCopies(home, ID, first)).not.toEqual([]);
      const rerun = await purgeWith(interruptingFs([], 0).fs, 'opencode', ID, opts);
      expect(rerun).toMatchObject({ kind: 'purged', residual: [] });
      if (rerun.kind === 'purged') expect(rerun.purged).toEqual([expect.objectContaining({ kind: 'rows', db, table: DEAD_COPIES_TABLE })]);
      expect(unreportedCopies(home, ID, rerun)).toEqual([]);
    });
  });
});

// Regression (issue 31): the real Codex 0.171.0 left the purged id in the freed pages of thread_history_1.sqlite (3 hits,
// not SQL-visible): the dead-copy pass was built for OpenCode only. Codex writes its databases without secure_delete, so
// its own updates (items rewritten as a turn streams, projection state moved on, items deleted and projected again) leave
// old copies of a thread's rows in the unused space of shared pages and in free pages. Every Codex database a purge
// deletes rows from now goes through the one pass, and a rerun after an interrupted purge finishes it.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { materializeStage } from '../helpers/real-stage.js';
import { filesContaining, interruptingFs, purgeWith, unreportedCopies, withHolders } from '../helpers/finish-interrupt.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const ID = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const OTHER = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';

/** The real two-thread home after Codex streamed a few turns of each thread into thread_history_1 (no secure_delete). */
export function streamedCodex(): { history: string; state: string; home: string; opts: { home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-finish-'));
  roots.push(root);
  const s = materializeStage('codex/03-two-sessions', root);
  const history = join(s.home, '.codex/thread_history_1.sqlite');
  const w = new Database(history);
  w.pragma('journal_mode = WAL');
  const ins = w.prepare("INSERT INTO thread_items (thread_id, turn_id, item_id, rollout_ordinal, created_at_ms, item_json, item_type) VALUES (?, ?, ?, ?, 1, ?, 'message')");
  const upd = w.prepare('UPDATE thread_items SET item_json = ? WHERE thread_id = ? AND turn_id = ? AND item_id = ?');
  const proj = w.prepare('UPDATE thread_history_projection_state SET next_rollout_byte_offset = ?, next_rollout_ordinal = ? WHERE thread_id = ?');
  for (let t = 0; t < 12; t++) {
    for (const tid of [ID, OTHER]) ins.run(tid, `turn-s${t}`, `item-${t}`, 1000 + t, JSON.stringify({ thread: tid, text: '' }));
    for (let n = 1; n <= 5; n++) upd.run(JSON.stringify({ thread: ID, text: `streamed ${'y'.repeat(n * 70)}` }), ID, `turn-s${t}`, `item-${t}`);
    proj.run(t * 1000, t, ID);
  }
  // Items projected again: the old ones deleted (their pages freed as they were) and inserted anew.
  w.prepare("DELETE FROM thread_items WHERE thread_id = ? AND turn_id LIKE 'turn-s%'").run(ID);
  for (let t = 0; t < 12; t++) ins.run(ID, `turn-s${t}`, `item-${t}`, 1000 + t, JSON.stringify({ thread: ID, text: 'again' }));
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  return { history, state: join(s.home, '.codex/state_5.sqlite'), home: s.home, opts: { home: s.home, env: s.env } };
}

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

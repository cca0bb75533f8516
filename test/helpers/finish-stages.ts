// Stages for the finishing tests (issue 31): real stages after the agent's own writes without secure_delete left old copies
// of a conversation's rows in its database's pages. Each builder records its temp root in `scratch` for the caller to remove.
import Database from 'better-sqlite3';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDS, materializeHermesStage } from './adapter-hermes-real.js';
import { materializeStage } from './real-stage.js';

/** Temp roots the builders made. */
export const scratch: string[] = [];

const OC_ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const OC_OTHER = 'ses_dd615360cffeFzbK9W1oQVbVv9';
const CX_ID = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const CX_OTHER = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';
const HE_ID = IDS.a1;
const HE_OTHER = IDS.a2;

/** The real two-session store after a streaming turn of each session (parts rewritten as they grow, no secure_delete). */
export function streamedOpencode(): { db: string; home: string; opts: { home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-oc-finish-'));
  scratch.push(root);
  const s = materializeStage('opencode/03-two-sessions-before-delete', root);
  const db = join(s.home, '.local/share/opencode/opencode.db');
  const w = new Database(db);
  w.pragma('journal_mode = WAL');
  const msg = (sid: string) => w.prepare('SELECT id FROM message WHERE session_id = ? LIMIT 1').pluck().get(sid) as string;
  const ins = w.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 1, 1, ?)');
  const upd = w.prepare('UPDATE part SET data = ? WHERE id = ?');
  for (let i = 0; i < 40; i++) {
    for (const sid of [OC_ID, OC_OTHER]) ins.run(`prt_${sid}_${i}`, msg(sid), sid, JSON.stringify({ sessionID: sid, text: '' }));
    for (let n = 1; n <= 6; n++) upd.run(JSON.stringify({ sessionID: OC_ID, text: `streamed ${'x'.repeat(n * 60)}` }), `prt_${OC_ID}_${i}`);
  }
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  return { db, home: s.home, opts: { home: s.home, env: { ...s.env, PATH: '' } } };
}

/** The real two-thread home after Codex streamed a few turns of each thread into thread_history_1 (no secure_delete). */
export function streamedCodex(): { history: string; state: string; home: string; opts: { home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-finish-'));
  scratch.push(root);
  const s = materializeStage('codex/03-two-sessions', root);
  const history = join(s.home, '.codex/thread_history_1.sqlite');
  const w = new Database(history);
  w.pragma('journal_mode = WAL');
  const ins = w.prepare("INSERT INTO thread_items (thread_id, turn_id, item_id, rollout_ordinal, created_at_ms, item_json, item_type) VALUES (?, ?, ?, ?, 1, ?, 'message')");
  const upd = w.prepare('UPDATE thread_items SET item_json = ? WHERE thread_id = ? AND turn_id = ? AND item_id = ?');
  const proj = w.prepare('UPDATE thread_history_projection_state SET next_rollout_byte_offset = ?, next_rollout_ordinal = ? WHERE thread_id = ?');
  for (let t = 0; t < 12; t++) {
    for (const tid of [CX_ID, CX_OTHER]) ins.run(tid, `turn-s${t}`, `item-${t}`, 1000 + t, JSON.stringify({ thread: tid, text: '' }));
    for (let n = 1; n <= 5; n++) upd.run(JSON.stringify({ thread: CX_ID, text: `streamed ${'y'.repeat(n * 70)}` }), CX_ID, `turn-s${t}`, `item-${t}`);
    proj.run(t * 1000, t, CX_ID);
  }
  // Items projected again: the old ones deleted (their pages freed as they were) and inserted anew.
  w.prepare("DELETE FROM thread_items WHERE thread_id = ? AND turn_id LIKE 'turn-s%'").run(CX_ID);
  for (let t = 0; t < 12; t++) ins.run(CX_ID, `turn-s${t}`, `item-${t}`, 1000 + t, JSON.stringify({ thread: CX_ID, text: 'again' }));
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  return { history, state: join(s.home, '.codex/state_5.sqlite'), home: s.home, opts: { home: s.home, env: s.env } };
}

/** The real two-session store after Hermes ran a few more turns of both sessions (WAL, no secure_delete). */
export function streamedHermes(): { db: string; root: string; opts: { home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-hermes-finish-'));
  scratch.push(root);
  const s = materializeHermesStage('01-two-sessions', root);
  const w = new Database(s.db);
  w.pragma('journal_mode = WAL');
  const msg = w.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'assistant', ?, 1)");
  const edit = w.prepare('UPDATE messages SET content = ? WHERE id = ?');
  const title = w.prepare('UPDATE sessions SET title = ?, message_count = message_count + 1 WHERE id = ?');
  for (let t = 0; t < 15; t++) {
    const mine = msg.run(HE_ID, '').lastInsertRowid;
    msg.run(HE_OTHER, `other turn ${t}`);
    for (let n = 1; n <= 4; n++) edit.run(`turn ${t} of ${HE_ID}: ${'z'.repeat(n * 90)}`, mine);
    title.run(`${HE_ID} title ${'t'.repeat(t * 7)}`, HE_ID);
  }
  w.prepare("DELETE FROM messages WHERE session_id = ? AND content LIKE 'turn 1%'").run(HE_ID);
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  return { db: s.db, root, opts: { home: s.ctx.home, env: s.ctx.env } };
}


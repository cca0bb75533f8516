// Purged id still in opencode.db's bytes after a SIGKILLed session's purge (issue 18, found by the real-CLI suite): the
// hits were in the unused space of pages that still held other sessions' rows (old copies OpenCode's own streaming
// updates left there, written without secure_delete), which the purge's secure_delete never reaches. The purge now
// rebuilds just the b-trees owning such pages; with another process holding the database it leaves them and says so.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import { wipeOpencodeDeadCopies } from '../../../../src/agents/opencode/opencode-dead-copies.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { pagesNaming } from '../../../../src/sqlite/dead-copies.js';
import { FakeProcessTable } from '../../../../src/testing/process/index.js';
import { materializeStage } from '../../../helpers/real-stage.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
const OTHER = 'ses_dd615360cffeFzbK9W1oQVbVv9';

// The real two-session store, then what a streaming turn of each session does to it: parts inserted side by side and
// rewritten as they grow (OpenCode's connection has no secure_delete), the WAL checkpointed as OpenCode's auto-checkpoint does.
function streamedStage(): { db: string; ctx: { workspace: string; home: string; env: Record<string, string> } } {
  const root = mkdtempSync(join(tmpdir(), 'mam-oc-dead-'));
  roots.push(root);
  const s = materializeStage('opencode/03-two-sessions-before-delete', root);
  const db = join(s.home, '.local/share/opencode/opencode.db');
  const w = new Database(db);
  w.pragma('journal_mode = WAL');
  const msg = (sid: string) => (w.prepare('SELECT id FROM message WHERE session_id = ? LIMIT 1').pluck().get(sid) as string);
  const ins = w.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, 1, 1, ?)');
  const upd = w.prepare('UPDATE part SET data = ? WHERE id = ?');
  for (let i = 0; i < 40; i++) {
    for (const sid of [ID, OTHER]) ins.run(`prt_${sid}_${i}`, msg(sid), sid, JSON.stringify({ sessionID: sid, text: '' }));
    for (let n = 1; n <= 6; n++) upd.run(JSON.stringify({ sessionID: ID, text: `streamed ${'x'.repeat(n * 60)}` }), `prt_${ID}_${i}`);
  }
  w.pragma('wal_checkpoint(TRUNCATE)');
  w.close();
  return { db, ctx: { workspace: join(root, 'ws-opencode2'), home: s.home, env: { ...s.env, PATH: '' } } };
}

const filesNaming = (db: string, needle: string): string[] => {
  const dir = join(db, '..');
  return readdirSync(dir).filter((n) => n.startsWith('opencode.db') && readFileSync(join(dir, n)).includes(Buffer.from(needle)));
};
const otherRows = (db: string): unknown[] => {
  const c = new Database(db, { readonly: true });
  try {
    return ['part', 'message', 'session', 'event'].map((t) => c.prepare(`SELECT rowid, * FROM ${t} WHERE ${t === 'session' ? 'id' : t === 'event' ? 'aggregate_id' : 'session_id'} != ? ORDER BY rowid`).all(ID));
  } finally {
    c.close();
  }
};

// The purge's own row delete, without the rebuild: secure_delete on, then a truncating checkpoint.
function deletePartsSecurely(db: string): void {
  const c = new Database(db);
  c.pragma('secure_delete = ON');
  c.prepare('DELETE FROM part WHERE session_id = ?').run(ID);
  c.pragma('wal_checkpoint(TRUNCATE)');
  c.close();
}

describe('opencode: old copies of a purged session in the unused space of shared pages', () => {
  it('the purge leaves no byte of the id in opencode.db, its sidecars included; every other row is byte for byte the same', async () => {
    const { db, ctx } = streamedStage();
    const before = otherRows(db);
    await getAdapter('opencode').purgeArtifacts(ID, ctx);
    expect(await getAdapter('opencode').residualArtifacts(ID, ctx)).toEqual([]);
    expect(filesNaming(db, ID)).toEqual([]);
    expect(otherRows(db)).toEqual(before);
    const c = new Database(db, { readonly: true });
    expect(c.pragma('integrity_check', { simple: true })).toBe('ok');
    c.close();
  });

  it('without the rebuild the rows are gone but old copies remain (the case the rebuild exists for)', () => {
    const { db } = streamedStage();
    deletePartsSecurely(db);
    expect(pagesNaming(readFileSync(db), [`prt_${ID}`]).length).toBeGreaterThan(0);
  });

  it('while another process holds the database, its pages are not rewritten: a note names the db and why', async () => {
    const { db } = streamedStage();
    deletePartsSecurely(db);
    const image = readFileSync(db);
    const proc = new FakeProcessTable([{ pid: 777, argv: ['opencode'], openFiles: [db] }], { self: { pid: 50, argv: ['node', 'mam'] } });
    const notes: string[] = [];
    expect(await wipeOpencodeDeadCopies(nodePorts().fs, proc, db, [ID], notes)).toEqual([]);
    expect(notes).toEqual([expect.stringMatching(new RegExp(`^${db.replaceAll('/', '\\/')}: [0-9]+ page\\(s\\) still hold old copies .*pid 777`))]);
    expect(readFileSync(db).equals(image)).toBe(true);
  });
});

// Regressions found by running the real Codex 0.171 end to end (issue 18): sub-agent threads offered by discover and left
// behind by a purge of their parent, the newer tables' rows, and deleted text readable in the database files.
import Database from 'better-sqlite3';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { dumpRows } from '../../../helpers/adapter-codex-tree.js';
import { strs } from '../../../helpers/artifact-strings.js';
import { CHILD, CHILD_PROMPT, GRANDCHILD, OTHER, PARENT, PROMPT, type SubagentStage, subagentStage } from '../../../helpers/codex-subagent-stage.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const adapter = getAdapter('codex');
const ctxOf = (s: SubagentStage, ws = s.ws): HomeDiscoveryContext => ({ workspace: ws, home: s.home, env: s.env });

function sqliteFiles(dir: string): string[] {
  return readdirSync(dir).filter((n) => /\.sqlite(-wal|-shm|-journal)?$/.test(n)).map((n) => join(dir, n));
}

function rowsNaming(s: SubagentStage, id: string): string[] {
  return sqliteFiles(s.codex)
    .filter((p) => p.endsWith('.sqlite'))
    .flatMap((p) => dumpRows(p).filter((l) => l.toLowerCase().includes(id)).map((l) => `${p.split('/').pop()} ${l.slice(0, l.indexOf(' '))}`));
}

describe('codex sub-agent threads', () => {
  it('discover no longer offers a sub-agent thread as the workspace\'s newest conversation', async () => {
    const s = subagentStage(roots);
    expect(await adapter.discover(ctxOf(s))).toEqual([PARENT]);
    for (const mode of ['verify', 'discover'] as const) {
      expect(await adapter.verifyArtifact(CHILD, ctxOf(s), mode)).toBe(false);
      expect(await adapter.verifyArtifact(PARENT, ctxOf(s), mode)).toBe(true);
    }
  });

  it('the threads row alone says sub-agent: a child whose rollout head looks top-level is still left out', async () => {
    const s = subagentStage(roots);
    const path = s.rollout(CHILD);
    const [first, ...rest] = readFileSync(path, 'utf8').split('\n');
    const head = JSON.parse(first as string) as { payload: Record<string, unknown> };
    head.payload = { ...head.payload, session_id: CHILD, source: 'exec' };
    writeFileSync(path, [JSON.stringify(head), ...rest].join('\n'));
    expect(await adapter.discover(ctxOf(s))).toEqual([PARENT]);
    expect(await adapter.verifyArtifact(CHILD, ctxOf(s))).toBe(false);
  });

  it('discover still leaves sub-agents out when no state database is trusted (rollout scan)', async () => {
    const s = subagentStage(roots);
    const db = new Database(join(s.codex, 'state_5.sqlite'));
    db.exec("UPDATE backfill_state SET status = 'running'");
    db.close();
    expect(await adapter.discover(ctxOf(s))).toEqual([PARENT]);
  });

  it('purging the parent no longer leaves the child\'s rollout, rows and history with an empty residual', async () => {
    const s = subagentStage(roots);
    const ctx = ctxOf(s);
    const kids = [CHILD, GRANDCHILD].map((k) => s.rollout(k));
    const before = strs(await adapter.residualArtifacts(PARENT, ctx));
    for (const k of kids) expect(before).toContain(k);
    const purged = strs(await adapter.purgeArtifacts(PARENT, ctx));
    for (const k of [...kids, s.rollout(OTHER)]) expect(existsSync(k), k).toBe(k === s.rollout(OTHER));
    expect(purged).toContain(join(s.codex, 'shell_snapshots', `${CHILD}.1795999000000000000.sh`));
    for (const id of [PARENT, CHILD, GRANDCHILD]) expect(rowsNaming(s, id), id).toEqual(id === PARENT ? ['state_5.sqlite threads'] : []);
    // The only row still naming the parent is the other thread's attached_thread_parent_id: a mention, never removed.
    expect(dumpRows(join(s.codex, 'state_5.sqlite')).filter((l) => l.includes(PARENT)).map((l) => (JSON.parse(l.slice(8)) as { id: string }).id)).toEqual([OTHER]);
    expect(await adapter.residualArtifacts(PARENT, ctx)).toEqual([]);
    expect(strs(await adapter.mentions(PARENT, ctx)).sort()).toEqual(
      [join(s.codex, 'history.jsonl'), join(s.codex, 'session_index.jsonl'), `${join(s.codex, 'state_5.sqlite')} (threads.attached_thread_parent_id: 1 rows)`].sort(),
    );
    // The TUI files keep the prompt and the title: reported, never rewritten.
    expect(readFileSync(join(s.codex, 'history.jsonl'), 'utf8')).toContain(PROMPT);
    expect(await adapter.discover(ctx)).toEqual([]);
    expect(await adapter.discover(ctxOf(s, join(s.root, 'ws-codex2')))).toEqual([OTHER]);
  });

  it('the newer tables\' rows (receipts, attachments, guardian feedback, model ids, skipped rollouts, queue revisions, goal deferrals) go with the thread', async () => {
    const s = subagentStage(roots);
    const purged = strs(await adapter.purgeArtifacts(PARENT, ctxOf(s)));
    const state = join(s.codex, 'state_5.sqlite');
    for (const line of [
      `${state} (thread_read_receipts.thread_id: 1 rows)`,
      `${state} (thread_attachments.thread_id: 1 rows)`,
      `${state} (guardian_review_feedback.thread_id: 1 rows)`,
      `${state} (session_model_ids.session_id: 1 rows)`,
      `${state} (rollout_migration_skipped_rollouts.rollout_path: 1 rows)`,
      `${join(s.codex, 'queue_1.sqlite')} (queued_thread_revisions.thread_id: 1 rows)`,
      `${join(s.codex, 'goals_1.sqlite')} (thread_goal_continuation_deferrals.thread_id: 1 rows)`,
    ]) {
      expect(purged).toContain(line);
    }
    // The other thread's skipped-rollout row stays.
    expect(dumpRows(state).filter((l) => l.startsWith('rollout_migration_skipped_rollouts '))).toHaveLength(1);
    const queue = new Database(join(s.codex, 'queue_1.sqlite'), { readonly: true });
    expect(queue.prepare('SELECT count(*) FROM queued_thread_revisions').pluck().get()).toBe(0);
    queue.close();
  });

  it('the purge preview lists the sub-agent threads\' files and rows, marked as the child\'s, and changes nothing', async () => {
    const s = subagentStage(roots);
    const plan = await adapter.planPurge(PARENT, ctxOf(s));
    const shown = strs(plan.artifacts);
    for (const k of [CHILD, GRANDCHILD]) expect(shown).toContain(s.rollout(k));
    expect(shown).toContain(`${join(s.codex, 'state_5.sqlite')} (threads.id: 1 rows) [child ${CHILD}]`);
    expect(shown).toContain(`${join(s.codex, 'thread_history_1.sqlite')} (thread_items.thread_id: 2 rows) [child ${CHILD}]`);
    expect(plan.refused).toEqual([]);
    expect(existsSync(s.rollout(CHILD))).toBe(true);
  });

  it('purging a sub-agent thread alone leaves its parent whole', async () => {
    const s = subagentStage(roots);
    const grand = s.rollout(GRANDCHILD);
    await adapter.purgeArtifacts(GRANDCHILD, ctxOf(s));
    expect(existsSync(grand)).toBe(false);
    expect(existsSync(s.rollout(CHILD))).toBe(true);
    expect(await adapter.discover(ctxOf(s))).toEqual([PARENT]);
  });
});

describe('deleted text stays readable', () => {
  const grep = (files: readonly string[], needles: readonly string[]): string[] =>
    files.flatMap((f) => needles.filter((n) => readFileSync(f).includes(Buffer.from(n))).map((n) => `${f.split('/').pop()}: ${n}`));

  it('after a purge a byte grep of every database file finds neither the purged ids nor their prompt text', async () => {
    const s = subagentStage(roots);
    const needles = [PARENT, CHILD, GRANDCHILD, PROMPT, CHILD_PROMPT];
    expect(grep(sqliteFiles(s.codex), needles).length).toBeGreaterThan(0);
    await adapter.purgeArtifacts(PARENT, ctxOf(s));
    // The only hit left is the other thread's attached_thread_parent_id (a mention the result names).
    expect(grep(sqliteFiles(s.codex), needles)).toEqual(['state_5.sqlite: ' + PARENT]);
  });

  it('in WAL mode with another connection open, the purge zeroes the pages and truncates the -wal (no text in it)', async () => {
    const s = subagentStage(roots);
    const dbs = sqliteFiles(s.codex).filter((p) => p.endsWith('.sqlite'));
    // Codex keeps every database in WAL mode and open while it runs (another thread's process, say).
    const live = dbs.map((p) => {
      const d = new Database(p);
      d.pragma('journal_mode = WAL');
      d.prepare('SELECT count(*) FROM sqlite_schema').get();
      return d;
    });
    try {
      await adapter.purgeArtifacts(PARENT, ctxOf(s));
      expect(sqliteFiles(s.codex).some((p) => p.endsWith('-wal'))).toBe(true);
      expect(grep(sqliteFiles(s.codex), [CHILD, GRANDCHILD, PROMPT, CHILD_PROMPT])).toEqual([]);
    } finally {
      for (const d of live) d.close();
    }
  });
});

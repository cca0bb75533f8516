// The real codex/03-two-sessions stage grown by what Codex 0.171 writes for a sub-agent (`multi_agent_v1.spawn_agent`):
// a child thread with its own rollout (session_meta.session_id = the parent's id, source.subagent.thread_spawn) and
// `threads` row (source JSON), a grandchild below it, spawn edges, history rows, logs; plus the parent's rows in the newer
// tables (read receipts, attachments, guardian feedback, model ids, skipped-rollout rows, queue, goals) and the TUI files.
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { materializeStage, type RealStage } from './real-stage.js';

export const PARENT = '01a229e1-babe-7660-ab96-63d71c4bdf06';
export const OTHER = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';
export const CHILD = '01a229e2-0b0b-7c01-8c01-0000000c0001';
export const GRANDCHILD = '01a229e2-0b0b-7c02-8c02-0000000c0002';
/** The parent's prompt, unique so a byte grep finds only it. */
export const PROMPT = 'PROMPT-MARKER-q7Zx3-purge-me';
export const CHILD_PROMPT = 'CHILD-PROMPT-MARKER-w9Yk2';

export interface SubagentStage extends RealStage {
  codex: string;
  ws: string;
  rollout(id: string): string;
}

function sql(path: string, statements: string[], params: Record<string, unknown> = {}): void {
  const db = new Database(path);
  try {
    for (const s of statements) {
      const names = [...s.matchAll(/@(\w+)/g)].map((m) => m[1] as string);
      const bound = Object.fromEntries(names.map((n) => [n, params[n]]));
      if (names.length > 0) db.prepare(s).run(bound);
      else db.exec(s);
    }
  } finally {
    db.close();
  }
}

function spawnSource(parent: string, depth: number): string {
  return JSON.stringify({ subagent: { thread_spawn: { parent_thread_id: parent, depth, agent_nickname: 'helper', agent_role: 'worker' } } });
}

function childRollout(codex: string, parentRollout: string, id: string, parent: string, depth: number, prompt: string): string {
  const [first] = readFileSync(parentRollout, 'utf8').split('\n');
  const head = JSON.parse(first as string) as { payload: Record<string, unknown> };
  // As measured: the child's session_meta carries the spawning session's id as session_id.
  head.payload = { ...head.payload, id, session_id: parent, source: JSON.parse(spawnSource(parent, depth)), thread_source: 'subagent' };
  const path = join(codex, 'sessions/2026/11/30', `rollout-2026-11-30T00-37-0${depth}-${id}.jsonl`);
  writeFileSync(path, `${JSON.stringify(head)}\n${JSON.stringify({ type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] } })}\n`);
  return path;
}

/** Materialises the stage under a new temp root and adds the sub-agent threads and the newer tables' rows. */
export function subagentStage(roots: string[]): SubagentStage {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-sub-'));
  roots.push(root);
  const s = materializeStage('codex/03-two-sessions', root);
  const codex = join(s.home, '.codex');
  const day = join(codex, 'sessions/2026/11/30');
  const rollout = (id: string): string => join(day, readdirSync(day).find((n) => n.endsWith(`-${id}.jsonl`)) as string);
  const parentRollout = rollout(PARENT);
  const childPath = childRollout(codex, parentRollout, CHILD, PARENT, 1, CHILD_PROMPT);
  const grandPath = childRollout(codex, parentRollout, GRANDCHILD, CHILD, 2, `${CHILD_PROMPT}-2`);
  const state = join(codex, 'state_5.sqlite');
  const copyThread = (id: string, path: string, parent: string, depth: number): string[] => [
    'DROP TABLE IF EXISTS temp.t',
    `CREATE TEMP TABLE t AS SELECT * FROM threads WHERE id = '${PARENT}'`,
    `UPDATE temp.t SET id = '${id}', rollout_path = '${path}', source = '${spawnSource(parent, depth)}', thread_source = 'subagent', title = '${CHILD_PROMPT}', first_user_message = '${CHILD_PROMPT}', preview = '${CHILD_PROMPT}'`,
    'INSERT INTO threads SELECT * FROM temp.t',
  ];
  sql(state, [
    `UPDATE threads SET title = '${PROMPT}', first_user_message = '${PROMPT}', preview = '${PROMPT}' WHERE id = '${PARENT}'`,
    ...copyThread(CHILD, childPath, PARENT, 1),
    ...copyThread(GRANDCHILD, grandPath, CHILD, 2),
    `INSERT INTO thread_spawn_edges VALUES ('${PARENT}', '${CHILD}', 'completed'), ('${CHILD}', '${GRANDCHILD}', 'completed')`,
    `INSERT INTO thread_dynamic_tools SELECT '${CHILD}', position, name, description, input_schema, defer_loading, namespace FROM thread_dynamic_tools WHERE thread_id = '${PARENT}'`,
    `INSERT INTO thread_read_receipts VALUES ('${PARENT}', NULL, 'r1', NULL)`,
    `INSERT INTO thread_attachments VALUES ('att-1', '${PARENT}', 'file', 'k1', '{"text":"${PROMPT}"}', 1)`,
    `INSERT INTO guardian_review_feedback VALUES ('gr-1', '${PARENT}', X'00')`,
    `INSERT INTO session_model_ids VALUES ('${PARENT}', 'model', 'fake-model', 0, '{}'), ('${CHILD}', 'model', 'fake-model', 0, '{}')`,
    `UPDATE threads SET attached_thread_parent_id = '${PARENT}' WHERE id = '${OTHER}'`,
    `INSERT INTO rollout_migration_skipped_rollouts VALUES ('m1', '${parentRollout}', 10, 1, 'too-large', 1), ('m1', '${rollout(OTHER)}', 10, 1, 'too-large', 1)`,
    'VACUUM',
  ]);
  sql(join(codex, 'thread_history_1.sqlite'), [
    `UPDATE thread_items SET item_json = replace(item_json, 'say hi', '${PROMPT}') WHERE thread_id = '${PARENT}'`,
    `INSERT INTO thread_items SELECT '${CHILD}', turn_id, item_id, rollout_ordinal, created_at_ms, replace(item_json, 'say hi', '${CHILD_PROMPT}'), item_type, updated_at_ordinal, started_at_ms, completed_at_ms FROM thread_items WHERE thread_id = '${PARENT}'`,
    `INSERT INTO thread_history_projection_state VALUES ('${CHILD}', 10, 1)`,
    'VACUUM',
  ]);
  sql(join(codex, 'logs_2.sqlite'), [
    `INSERT INTO logs (ts, ts_nanos, level, target, feedback_log_body, thread_id, estimated_bytes) VALUES (1, 0, 'INFO', 'codex', 'turn for ${PROMPT}', '${PARENT}', 10), (2, 0, 'INFO', 'codex', 'child turn', '${CHILD}', 10)`,
  ]);
  sql(join(codex, 'queue_1.sqlite'), [`INSERT INTO queued_items VALUES ('q1', '${PARENT}', '{"text":"${PROMPT}"}', 0, 1, 1)`]);
  sql(join(codex, 'goals_1.sqlite'), [
    `INSERT INTO thread_goals VALUES ('${PARENT}', 'g1', '${PROMPT}', 'active', NULL, 0, 0, 1, 1)`,
    `INSERT INTO thread_goal_continuation_deferrals VALUES ('${PARENT}')`,
  ]);
  writeFileSync(join(codex, 'shell_snapshots', `${CHILD}.1795999000000000000.sh`), 'export FAKE_KEY=REDACTED\n');
  writeFileSync(join(codex, 'history.jsonl'), `${JSON.stringify({ session_id: PARENT, ts: 1, text: PROMPT })}\n${JSON.stringify({ session_id: OTHER, ts: 2, text: 'other workspace' })}\n`);
  writeFileSync(join(codex, 'session_index.jsonl'), `${JSON.stringify({ id: PARENT, thread_name: PROMPT, updated_at: '2026-11-30T00:36:29Z' })}\n`);
  return { ...s, codex, ws: join(root, 'ws-codex'), rollout };
}

import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AGY_SCHEMA } from './seed-schemas/agy.js';
import { CODEX_HISTORY_SCHEMA } from './seed-schemas/codex-history.js';
import { CODEX_STATE_SCHEMA } from './seed-schemas/codex-state.js';
import { HERMES_SCHEMA } from './seed-schemas/hermes.js';
import { OPENCODE_SCHEMA } from './seed-schemas/opencode.js';
import { appendLines, dataDir, localStamp, mkdirp, opencodeId, readObject, type SeedPlan, uuidV7, writeWhole } from './seed-layout.js';
import { writeAgentDb } from './seed-sqlite.js';

const CODEX_VERSION = '0.171.0';

/**
 * Codex 0.171 after a finished `codex exec` (test/fixtures/real/codex/03-two-sessions): the rollout
 * `sessions/YYYY/MM/DD/rollout-<local stamp>-<id>.jsonl`, its `threads` row in `state_5.sqlite`, its turn, items and
 * projection state in `thread_history_1.sqlite`, a shell snapshot `shell_snapshots/<id>.<nanos>.sh` (with a fake key, as
 * a real one holds the environment) and the released `thread-writer-locks/<id>.lock`.
 */
export function seedCodex(plan: SeedPlan): void {
  const home = mkdirp(dataDir(plan, 'CODEX_HOME', '.codex'));
  const { id, cwd, now } = plan;
  const { day, stamp } = localStamp(now);
  const rollout = join(home, 'sessions', ...day, `rollout-${stamp}-${id}.jsonl`);
  const at = new Date(now).toISOString();
  const sec = Math.floor(now / 1000);
  const turn = uuidV7(now);
  const item = uuidV7(now + 1);
  const meta = { session_id: id, id, timestamp: at, cwd, runtime_workspace_roots: [cwd], originator: 'codex_exec', cli_version: CODEX_VERSION, source: 'exec', thread_source: 'user', model_provider: 'openai' };
  const records = [
    { timestamp: at, ordinal: 0, type: 'session_meta', payload: meta },
    { timestamp: at, ordinal: 1, type: 'event_msg', payload: { type: 'task_started', turn_id: turn, root_turn_id: turn, started_at: sec } },
    { timestamp: at, ordinal: 2, type: 'turn_context', payload: { cwd, approval_policy: 'never', model: 'gpt-6.2-sol', turn_id: turn } },
    { timestamp: at, ordinal: 3, type: 'response_item', payload: { type: 'message', id: `msg_${item}`, role: 'user', content: [{ type: 'input_text', text: plan.prompt }] } },
    { timestamp: at, ordinal: 4, type: 'event_msg', payload: { type: 'task_complete', turn_id: turn, last_agent_message: 'ok' } },
  ];
  appendLines(rollout, records);
  const rolloutBytes = records.reduce((n, r) => n + Buffer.byteLength(`${JSON.stringify(r)}\n`), 0);
  writeAgentDb(join(home, 'state_5.sqlite'), CODEX_STATE_SCHEMA, plan.sqlite, (db) => {
    db.prepare("INSERT OR IGNORE INTO backfill_state (id, status, last_success_at, updated_at) VALUES (1, 'complete', ?, ?)").run(sec, sec);
    db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode,
      cli_version, first_user_message, memory_mode, model, created_at_ms, updated_at_ms, thread_source, preview, recency_at, recency_at_ms, history_mode, originator)
      VALUES (?, ?, ?, ?, 'exec', 'openai', ?, ?, '{"type":"workspace-write"}', 'never', ?, ?, 'enabled', 'gpt-6.2-sol', ?, ?, 'user', ?, ?, ?, 'paginated', 'codex_exec')`)
      .run(id, rollout, sec, sec, cwd, plan.prompt, CODEX_VERSION, plan.prompt, now, now, plan.prompt, sec, now);
  });
  writeAgentDb(join(home, 'thread_history_1.sqlite'), CODEX_HISTORY_SCHEMA, plan.sqlite, (db) => {
    db.prepare("INSERT INTO thread_turns (thread_id, turn_id, rollout_ordinal, status, started_at, completed_at, first_user_item_id, rollout_byte_offset, root_turn_id) VALUES (?, ?, 1, 'completed', ?, ?, ?, 0, ?)")
      .run(id, turn, sec, sec + 1, item, turn);
    const json = JSON.stringify({ type: 'userMessage', id: item, clientId: null, content: [{ type: 'text', text: plan.prompt, text_elements: [] }] });
    db.prepare("INSERT INTO thread_items (thread_id, turn_id, item_id, rollout_ordinal, created_at_ms, item_json, item_type) VALUES (?, ?, ?, 3, ?, ?, 'userMessage')").run(id, turn, item, now, json);
    db.prepare('INSERT INTO thread_history_projection_state (thread_id, next_rollout_byte_offset, next_rollout_ordinal) VALUES (?, ?, 5)').run(id, rolloutBytes);
  });
  const nanos = `${now}${String(randomBytes(3).readUIntBE(0, 3) % 1_000_000).padStart(6, '0')}`;
  const snapshot = ['# Snapshot file', '# Unset all aliases to avoid conflicts with functions', 'unalias -a 2>/dev/null || true',
    `export HOME=${JSON.stringify(plan.home)}`, "export OPENAI_API_KEY='sk-fake-sandbox-secret'", ''];
  writeWhole(join(home, 'shell_snapshots', `${id}.${nanos}.sh`), snapshot.join('\n'));
  writeFileSync(join(mkdirp(join(home, 'thread-writer-locks')), `${id}.lock`), '', { flag: 'a', mode: 0o600 });
}

/**
 * Hermes 0.19 after a finished CLI session (test/fixtures/real/hermes/01-two-sessions): a `sessions` row (source `cli`,
 * `cwd`, `started_at`, closed with `end_reason = 'cli_close'`) and its messages in `state.db`, the real schema 22 (FTS5
 * tables and their triggers included) on a new file.
 */
export function seedHermes(plan: SeedPlan): void {
  const root = mkdirp(dataDir(plan, 'HERMES_HOME', '.hermes'));
  const start = plan.now / 1000;
  writeAgentDb(join(root, 'state.db'), HERMES_SCHEMA, plan.sqlite, (db) => {
    if (db.prepare('SELECT count(*) FROM schema_version').pluck().get() === 0) db.prepare('INSERT INTO schema_version (version) VALUES (22)').run();
    db.prepare(`INSERT INTO sessions (id, source, model, model_config, started_at, ended_at, end_reason, message_count, tool_call_count, input_tokens,
      output_tokens, cwd, billing_provider, cost_status, api_call_count) VALUES (?, 'cli', 'anthropic/claude-sonnet-4.6', '{"max_iterations": 90}', ?, ?, 'cli_close', 2, 0, 12, 1, ?, 'openrouter', 'estimated', 1)`)
      .run(plan.id, start, start + 1.2, plan.cwd);
    const message = db.prepare('INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)');
    message.run(plan.id, 'user', plan.prompt, start + 0.001);
    message.run(plan.id, 'assistant', 'ok', start + 1.1);
  });
}

/**
 * OpenCode 1.18 after a finished session (test/fixtures/real/opencode/03-two-sessions-before-delete): the `global`
 * project, a `session` row whose `directory` is the cwd, a user and an assistant `message`, a `part`, the
 * `event_sequence` and `event` rows, in the shared `opencode.db` (real 1.x schema), whose WAL OpenCode never checkpoints.
 */
export function seedOpencode(plan: SeedPlan): void {
  const data = mkdirp(dataDir(plan, 'XDG_DATA_HOME', '.local/share/opencode', 'opencode'));
  const { id, cwd, now } = plan;
  writeAgentDb(join(data, 'opencode.db'), OPENCODE_SCHEMA, plan.sqlite, (db) => {
    db.prepare("INSERT OR IGNORE INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES ('global', '/', NULL, ?, ?, '[]')").run(now, now);
    db.prepare(`INSERT INTO session (id, project_id, slug, directory, path, title, version, agent, model, time_created, time_updated)
      VALUES (?, 'global', 'quiet-river', ?, '', ?, '1.18.33', 'build', '{"id":"claude-sonnet-4-6","providerID":"anthropic","variant":"default"}', ?, ?)`)
      .run(id, cwd, `New session - ${new Date(now).toISOString()}`, now, now + 1200);
    const user = opencodeId('msg', now, false);
    const reply = opencodeId('msg', now + 1, false);
    const message = db.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)');
    message.run(user, id, now, now, JSON.stringify({ role: 'user', time: { created: now }, agent: 'build', model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-6' } }));
    message.run(reply, id, now + 1, now + 1200, JSON.stringify({ parentID: user, role: 'assistant', mode: 'build', agent: 'build', path: { cwd, root: cwd }, time: { created: now + 1, completed: now + 1200 } }));
    db.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run(opencodeId('prt', now, false), user, id, now, now, JSON.stringify({ type: 'text', text: plan.prompt }));
    const events: Array<[string, unknown]> = [['session.created.1', { sessionID: id, info: { id, directory: cwd } }], ['message.updated.1', { sessionID: id, info: { id: user } }]];
    db.prepare('INSERT INTO event_sequence (aggregate_id, seq) VALUES (?, ?)').run(id, events.length - 1);
    const event = db.prepare('INSERT INTO event (id, aggregate_id, seq, type, data) VALUES (?, ?, ?, ?, ?)');
    events.forEach(([type, body], seq) => event.run(opencodeId('evt', now + seq, false), id, seq, type, JSON.stringify(body)));
  });
}

// One length-delimited protobuf field (agy's CortexTrajectoryMetadata and step metadata).
function varint(n: number): number[] {
  const out: number[] = [];
  let x = n;
  while (x >= 0x80) {
    out.push((x & 0x7f) | 0x80);
    x = Math.floor(x / 128);
  }
  out.push(x);
  return out;
}
function field(n: number, bytes: readonly number[]): number[] {
  return [...varint(n * 8 + 2), ...varint(bytes.length), ...bytes];
}
function text(s: string): number[] {
  return [...Buffer.from(s, 'utf8')];
}
function timestamp(ms: number): number[] {
  return [...varint(8), ...varint(Math.floor(ms / 1000)), ...varint(16), ...varint((ms % 1000) * 1_000_000)];
}

/**
 * agy after a finished interactive run (test/fixtures/derived/agy, LAYOUT.md): `conversations/<id>.db` (the 9 GORM
 * statements, `user_version` 1, `trajectory_meta` cascade = the id, the workspace in `trajectory_metadata_blob`
 * fields 1 and 7, a user-input and a planner-response step), usually left in its WAL; `brain/<id>/` with its transcript,
 * the released `presence/<id>.lock`, two `history.jsonl` lines (the first prompt carries no id) and the cache entry.
 */
export function seedAgy(plan: SeedPlan): void {
  const root = join(dataDir(plan, 'GEMINI_HOME', '.gemini'), 'antigravity-cli');
  const { id, cwd, now } = plan;
  const uri = `file://${cwd.split('/').map(encodeURIComponent).join('/')}`;
  mkdirp(join(root, 'conversations'));
  writeAgentDb(join(root, 'conversations', `${id}.db`), AGY_SCHEMA, plan.sqlite, (db) => {
    db.pragma('user_version = 1');
    db.prepare('INSERT INTO trajectory_meta VALUES (?, ?, 4, 17)').run(randomUUID(), id);
    const blob = [...field(1, field(1, text(uri))), ...field(2, timestamp(now)), ...field(6, text(id)), ...field(7, text(uri)), ...field(18, text('default-cli-project'))];
    db.prepare("INSERT INTO trajectory_metadata_blob (id, data) VALUES ('main', ?)").run(Buffer.from(blob));
    const step = db.prepare('INSERT INTO steps (idx, step_type, status, metadata) VALUES (?, ?, 3, ?)');
    step.run(0, 14, Buffer.from(field(1, timestamp(now))));
    step.run(1, 15, Buffer.from(field(1, timestamp(now + 1200))));
  });
  const at = new Date(now).toISOString();
  appendLines(join(root, 'brain', id, '.system_generated', 'logs', 'transcript.jsonl'), [
    { step_index: 0, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at: at, content: `<USER_REQUEST>\n${plan.prompt}\n</USER_REQUEST>` },
    { step_index: 1, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at: at, content: 'ok' },
  ]);
  writeFileSync(join(mkdirp(join(root, 'presence')), `${id}.lock`), '', { flag: 'a', mode: 0o600 });
  appendLines(join(root, 'history.jsonl'), [
    { display: plan.prompt, timestamp: now, workspace: cwd },
    { display: '/exit', timestamp: now + 1300, workspace: cwd, conversationId: id, type: 'slash_command' },
  ]);
  const cache = join(root, 'cache', 'last_conversations.json');
  writeWhole(cache, JSON.stringify({ ...readObject(cache), [cwd]: id }));
}

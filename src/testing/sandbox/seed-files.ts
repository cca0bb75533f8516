import { createHash, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProjectKey } from '../../agents/claude/project-key.js';
import { encodeGrokCwd } from '../../agents/grok/grok-encode.js';
import { appendLines, dataDir, mkdirp, type SeedPlan, uuidV7, writeWhole } from './seed-layout.js';

const CLAUDE_VERSION = '2.1.197';

/**
 * Claude Code 2.1 after a finished run (test/fixtures/real/claude/01-after-runs): the transcript
 * `projects/<key>/<id>.jsonl` (queue operations, then a user and an assistant record carrying `cwd`, `sessionId`,
 * `version`) and `session-env/<id>/`. No `sessions/<pid>.json`: no process is alive.
 */
export function seedClaude(plan: SeedPlan): void {
  const config = dataDir(plan, 'CLAUDE_CONFIG_DIR', '.claude');
  const at = new Date(plan.now).toISOString();
  const later = new Date(plan.now + 1200).toISOString();
  const { id, cwd } = plan;
  const common = { isSidechain: false, userType: 'external', entrypoint: 'cli', cwd, sessionId: id, version: CLAUDE_VERSION };
  const user = randomUUID();
  appendLines(join(config, 'projects', claudeProjectKey(cwd), `${id}.jsonl`), [
    { type: 'queue-operation', operation: 'enqueue', timestamp: at, sessionId: id, content: plan.prompt },
    { type: 'queue-operation', operation: 'dequeue', timestamp: at, sessionId: id },
    { parentUuid: null, ...common, promptId: randomUUID(), type: 'user', message: { role: 'user', content: plan.prompt }, uuid: user, timestamp: at, permissionMode: 'default' },
    {
      parentUuid: user, ...common, type: 'assistant', uuid: randomUUID(), timestamp: later,
      message: { id: `msg_${randomUUID().replaceAll('-', '')}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn', usage: { input_tokens: 12, output_tokens: 1 } },
    },
  ]);
  mkdirp(join(config, 'session-env', id));
}

// grok-build's bucket: the URL-encoded cwd; past 255 bytes a slug of the leaf and a hash (blake3 in grok; any hash
// will do, readers map the bucket back through its `.cwd`).
function grokBucket(root: string, cwd: string): string {
  const encoded = encodeGrokCwd(cwd);
  if (encoded !== null) return mkdirp(join(root, 'sessions', encoded));
  const leaf = (cwd.split('/').pop() ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'workspace';
  const dir = mkdirp(join(root, 'sessions', `${leaf}-${createHash('sha256').update(cwd).digest('hex').slice(0, 16)}`));
  if (!existsSync(join(dir, '.cwd'))) writeFileSync(join(dir, '.cwd'), cwd, { mode: 0o600 });
  return dir;
}

/**
 * Grok Build after a finished session (test/fixtures/derived/grok): `sessions/<bucket>/<id>/` with `summary.json`,
 * `updates.jsonl`, `chat_history.jsonl`, `rewind_points.jsonl`, `summary.json.lock`, and the bucket's
 * `prompt_history.jsonl` line. No `active_sessions.json` entry: a clean exit removes it.
 */
export function seedGrok(plan: SeedPlan): void {
  const root = mkdirp(dataDir(plan, 'GROK_HOME', '.grok'));
  const bucket = grokBucket(root, plan.cwd);
  const { id, cwd } = plan;
  const dir = mkdirp(join(bucket, id));
  const at = new Date(plan.now).toISOString();
  const done = new Date(plan.now + 1200).toISOString();
  const summary = {
    info: { id, cwd }, session_summary: plan.prompt, created_at: at, updated_at: done, num_messages: 2, num_chat_messages: 2,
    current_model_id: 'grok-4.6', next_trace_turn: 1, chat_format_version: 1, request_id: uuidV7(plan.now), grok_home: root,
    last_active_at: done, generated_title: plan.prompt, agent_name: 'grok-build-plan', sandbox_profile: 'off', reasoning_effort: 'high',
  };
  writeWhole(join(dir, 'summary.json'), JSON.stringify(summary, null, 2));
  writeFileSync(join(dir, 'summary.json.lock'), '', { flag: 'a', mode: 0o600 });
  const update = (n: number, kind: string, text: string) => ({
    timestamp: Math.floor(plan.now / 1000), method: 'session/update',
    params: { sessionId: id, update: { sessionUpdate: kind, content: { type: 'text', text } }, _meta: { eventId: `${id}-${n}`, agentTimestampMs: plan.now + n } },
  });
  appendLines(join(dir, 'updates.jsonl'), [update(2, 'user_message_chunk', plan.prompt), update(3, 'agent_message_chunk', 'ok')]);
  appendLines(join(dir, 'chat_history.jsonl'), [
    { type: 'system', content: 'You are Grok 4.6 released by xAI.' },
    { type: 'user', content: [{ type: 'text', text: `<user_query>\n${plan.prompt}\n</user_query>` }], prompt_index: 0 },
    { type: 'assistant', content: 'ok', model_id: 'grok-4.6-build', reasoning_effort: 'high' },
  ]);
  appendLines(join(dir, 'rewind_points.jsonl'), [{ prompt_index: 0, created_at: at, file_snapshots: {}, after_snapshots: {} }]);
  appendLines(join(bucket, 'prompt_history.jsonl'), [{ timestamp: at, session_id: id, prompt: plan.prompt, is_bash: false }]);
}

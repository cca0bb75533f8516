// Regression (issue 31): a conversation whose first prompt is 16 MiB or more was not discovered: the head reads grew
// 4 KiB, 32 KiB … 16 MiB and stopped (the next step was over the cap), and the prompt is in the queued record and again in
// the first record carrying the cwd. The last read is now the cap itself (TRANSCRIPT_HEAD_MAX_BYTES), for discovery and
// verification alike.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { TRANSCRIPT_HEAD_MAX_BYTES } from '../../src/agents/claude/transcript-head.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox } from '../helpers/adapter-claude-sandbox.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

let sb: ClaudeSandbox;
beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

describe('claude: a huge first prompt', () => {
  it('a conversation whose first prompt is 16 MiB or more is discovered and verified', async () => {
    const id = freshId();
    const prompt = 'p'.repeat(16 * 1024 * 1024 + 1);
    const start = '2026-11-30T00:00:00.000Z';
    const lines = [
      { type: 'queue-operation', operation: 'enqueue', timestamp: start, sessionId: id, content: prompt },
      { parentUuid: null, type: 'user', cwd: sb.ws, sessionId: id, version: '2.1.197', message: { role: 'user', content: prompt }, uuid: randomUUID(), timestamp: start },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
    expect(text.indexOf('"cwd"')).toBeGreaterThan(16 * 1024 * 1024);
    expect(text.length).toBeLessThan(TRANSCRIPT_HEAD_MAX_BYTES);
    const dir = join(sb.config, 'projects', claudeProjectKey(sb.ws));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${id}.jsonl`), text);
    const claude = new ClaudeAdapter(nodePorts());
    expect(await claude.discover(sb.ctx())).toEqual([id]);
    expect(await claude.verifyArtifact(id, sb.ctx())).toBe(true);
    expect(await claude.verifyMany([{ id }], sb.ctx())).toEqual([true]);
  });
});

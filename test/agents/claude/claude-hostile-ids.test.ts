import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, treeDigest, writeConversationArtifacts, writeSessionFile, writeTranscript } from '../../helpers/adapter-claude-sandbox.js';
import { strs } from '../../helpers/artifact-strings.js';

let sb: ClaudeSandbox;
beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

// Names that sit beside real conversation files: Claude's auto-memory dir, a notes file, and path tricks.
const HOSTILE = ['memory', 'notes', '../x', '/etc', '', '.', '..', 'memory\0', `${'a'.repeat(8)}-0000-4000-8000-00000000000`, 'ses_0123456789abABCDEFGHIJKLMN', '*', '-home-dev-ws'];

describe('ClaudeAdapter with implausible ids', () => {
  it.each(HOSTILE.map((h) => [JSON.stringify(h), h]))('%s reaches no path: purge, residual, hasArtifacts, mentions, in-use', async (_l, bad) => {
    const key = join(sb.config, 'projects', claudeProjectKey(sb.ws));
    mkdirSync(join(key, 'memory'), { recursive: true });
    writeFileSync(join(key, 'memory', 'MEMORY.md'), 'keep');
    writeFileSync(join(key, 'notes.jsonl'), '{}\n');
    writeFileSync(join(key, 'memory.jsonl'), '{}\n');
    mkdirSync(join(sb.config, 'session-env', 'memory'), { recursive: true });
    writeFileSync(join(sb.config, 'history.jsonl'), 'memory notes ../x /etc\n');
    const id = freshId();
    writeTranscript(sb, id);
    writeConversationArtifacts(sb, id);
    const seen: string[] = [];
    const ports = nodePorts();
    const spy = new Proxy(ports.fs, {
      get: (t, p, r) => {
        const v = Reflect.get(t, p, r) as unknown;
        return typeof v === 'function' ? (...a: unknown[]) => (seen.push(`${String(p)} ${String(a[0])}`), (v as (...x: unknown[]) => unknown).apply(t, a)) : v;
      },
    });
    const proc = new FakeProcessTable([{ pid: 5, argv: ['claude', '-r', 'memory'] }], { self: { pid: 6, argv: ['node'], env: { CLAUDE_CODE_SESSION_ID: 'memory' } } });
    const claude = new ClaudeAdapter({ ...ports, fs: spy, proc });
    const before = treeDigest(sb.root);
    expect(strs(await claude.purgeArtifacts(bad, sb.ctx()))).toEqual([]);
    expect(strs(await claude.residualArtifacts(bad, sb.ctx()))).toEqual([]);
    expect(await claude.hasArtifacts(bad, sb.ctx())).toBe(false);
    expect(strs(await claude.mentions(bad, sb.ctx()))).toEqual([]);
    expect(await claude.verifyArtifact(bad, sb.ctx())).toBe(false);
    expect(await claude.inUseHolders(bad, sb.ctx())).toEqual([]);
    expect(seen).toEqual([]);
    expect(proc.snapshotCalls + proc.holdersCalls).toBe(0);
    expect(treeDigest(sb.root)).toEqual(before);
  });

  it('an upper-case uuid reaches its live lower-case twin: the session holding it is detected as in use', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    writeSessionFile(sb, 7001, id, { procStart: 55 });
    const proc = new FakeProcessTable(
      [
        { pid: 7001, argv: ['claude', '--session-id', id], startTicks: 55 },
        { pid: 7002, argv: ['claude', '-r', id] },
      ],
      { self: { pid: 9, argv: ['node', 'mam', 'purge', 'claude', id.toUpperCase()] } },
    );
    const claude = new ClaudeAdapter({ ...nodePorts(), proc });
    const holders = await claude.inUseHolders(id.toUpperCase(), sb.ctx());
    expect(holders.map((h) => [h.pid, h.signal])).toEqual([
      [7001, 'command-line'],
      [7002, 'command-line'],
      [7001, 'pid-file'],
    ]);
    expect(proc.snapshotCalls).toBe(1);
    expect(await claude.conversationInUse(id.toUpperCase(), sb.ctx())).toBe(true);
    expect(strs(await claude.residualArtifacts(id.toUpperCase(), sb.ctx()))).toHaveLength(2);
  });
});

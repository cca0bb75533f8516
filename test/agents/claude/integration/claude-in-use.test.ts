// In-use signals of a Claude conversation with REAL processes: a command line naming the id, a holder of the transcript with
// the id on no command line, the caller's own CLAUDE_CODE_SESSION_ID, the claude session the caller runs under, and
// live-session files whose pid is alive (matching or not), dead, or reused.
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../../src/agents/claude/claude-adapter.js';
import type { InUseHolder } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeSessionFile, writeTranscript } from '../../../helpers/adapter-claude-sandbox.js';
import { deadPid, startSleeper, stopAll } from '../../../helpers/proc-children.js';
import { strs } from '../../../helpers/artifact-strings.js';
import { tsChildArgs } from '../../../helpers/ts-child.js';

const ROOT = join(import.meta.dirname, '../../../..');
const CHILD = join(ROOT, 'test/helpers/adapter-claude-in-use-child.ts');
const run = promisify(execFile);
const ports = nodePorts();
const claude = new ClaudeAdapter(ports);
let sb: ClaudeSandbox;

beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(async () => {
  await stopAll();
  await sb.dispose();
});

async function childHolders(id: string, env: NodeJS.ProcessEnv, prefix: string[] = []): Promise<{ self: number; holders: InUseHolder[] }> {
  const argv = [...prefix, process.execPath, ...tsChildArgs(CHILD), sb.home, sb.ws, sb.tmp, id];
  const { stdout } = await run(argv[0] as string, argv.slice(1), { cwd: ROOT, env, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as { self: number; holders: InUseHolder[] };
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['CLAUDE_CODE_SESSION_ID', 'ANTIGRAVITY_CONVERSATION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID', 'CODEX_THREAD_ID', 'CODEX_SESSION_ID']) delete env[k];
  return { ...env, ...extra };
}

describe('ClaudeAdapter in-use with real processes', () => {
  it('a live process naming the id (upper-case spelling) makes it in use; once it exits it is free', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    expect(await claude.conversationInUse(id, sb.ctx())).toBe(false);
    const holder = await startSleeper({ marker: id.toUpperCase() });
    const holders = await claude.inUseHolders(id, sb.ctx());
    expect(holders).toEqual([expect.objectContaining({ pid: holder.pid, signal: 'command-line' })]);
    expect(claude.inUseHints(id, sb.ctx())[0]).toBe(`ls -l ${join(sb.config, 'sessions')}/`);
    await stopAll();
    expect(await claude.conversationInUse(id, sb.ctx())).toBe(false);
  });

  it('an upper-case id whose lower-case twin is live: the live session is found, and a purge run from it would be refused', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    const holder = await startSleeper({ marker: id });
    expect(await claude.inUseHolders(id.toUpperCase(), sb.ctx())).toEqual([expect.objectContaining({ pid: holder.pid, signal: 'command-line' })]);
    expect(claude.inUseHints(id.toUpperCase(), sb.ctx())[2]).toBe(`ps -axww | grep ${id}`);
  });

  it('a process holding the transcript open with the id on no command line', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    const holder = await startSleeper({ hold: t });
    expect(await claude.inUseHolders(id, sb.ctx())).toEqual([expect.objectContaining({ pid: holder.pid, signal: 'open-file', detail: t })]);
  });

  it('the caller\'s own CLAUDE_CODE_SESSION_ID (a purge from the session\'s tool shell), computed by a real child', async () => {
    const id = freshId();
    const inShell = await childHolders(id, cleanEnv({ CLAUDE_CODE_SESSION_ID: id }));
    expect(inShell.holders).toEqual([expect.objectContaining({ pid: inShell.self, signal: 'session-env', detail: 'CLAUDE_CODE_SESSION_ID' })]);
    // The child names the id on its own command line: its own helper chain never counts.
    expect((await childHolders(id, cleanEnv())).holders).toEqual([]);
  });

  it('a purge run under the claude session that owns the id is refused (the agent ancestor counts)', async () => {
    const id = freshId();
    const bin = join(sb.root, 'agent-bin');
    mkdirSync(bin);
    copyFileSync(join(ROOT, 'test/fixtures/bin/fake-agent-cli'), join(bin, 'claude'));
    chmodSync(join(bin, 'claude'), 0o755);
    const out = await childHolders(id, cleanEnv(), [join(bin, 'claude'), '--session-id', id, '--']);
    expect(out.holders.map((h) => h.signal)).toEqual(['command-line']);
    expect(out.holders[0]?.command).toContain(join(bin, 'claude'));
  });

  describe('sessions/<pid>.json of a real live process', () => {
    async function live(): Promise<{ pid: number; startTicks: number | undefined; startedAtMs: number }> {
      const child = await startSleeper();
      const info = await ports.proc.lookup(child.pid);
      if (info === null || info.startedAtMs === null) throw new Error('no start time');
      return { pid: child.pid, startTicks: info.startTicks, startedAtMs: info.startedAtMs };
    }

    it('matching procStart (or startedAt where /proc is missing): in use, and the file survives a purge', async () => {
      const id = freshId();
      const p = await live();
      const file = writeSessionFile(sb, p.pid, id, { procStart: p.startTicks, startedAt: p.startedAtMs + 300 });
      expect(await claude.inUseHolders(id, sb.ctx())).toEqual([expect.objectContaining({ pid: p.pid, signal: 'pid-file', detail: file })]);
      expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
      expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([file]);
    });

    it('a reused pid (alive, but a wrong procStart / startedAt) is stale: not in use, and purged', async () => {
      const id = freshId();
      const p = await live();
      const wrong = p.startTicks === undefined ? { startedAt: p.startedAtMs - 3_600_000 } : { procStart: p.startTicks + 12_345, startedAt: p.startedAtMs };
      const file = writeSessionFile(sb, p.pid, id, wrong);
      expect(await claude.conversationInUse(id, sb.ctx())).toBe(false);
      expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([file]);
    });

    it('without procStart, a wrong startedAt is a reused pid too', async () => {
      const id = freshId();
      const p = await live();
      writeSessionFile(sb, p.pid, id, { startedAt: p.startedAtMs - 3_600_000 });
      expect(await claude.conversationInUse(id, sb.ctx())).toBe(false);
    });

    it.each([
      ['NaN', Number.NaN],
      ['0', 0],
      ['negative', -1],
      ['huge', 1e308],
      ['boolean', true],
      ['string', 'yesterday'],
    ])('a startedAt that cannot be told (%s) and no procStart: in use while the pid lives', async (_l, startedAt) => {
      const id = freshId();
      const p = await live();
      writeSessionFile(sb, p.pid, id, { startedAt });
      expect(await claude.conversationInUse(id, sb.ctx())).toBe(true);
    });

    it('a dead pid is stale whatever the file says', async () => {
      const id = freshId();
      const pid = await deadPid();
      const file = writeSessionFile(sb, pid, id, { startedAt: Number.NaN, procStart: 'x' });
      expect(await claude.conversationInUse(id, sb.ctx())).toBe(false);
      expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([file]);
    });
  });
});

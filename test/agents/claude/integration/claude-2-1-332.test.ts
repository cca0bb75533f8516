// What Claude Code 2.1.332 does that 2.1.197 did not (issue 18), on the real claude/01-after-runs stage grown by the new
// shapes: plugin stores naming a session, the key and socket a crashed session leaves beside its pid file, ~144 KB
// api-request-blob records per turn, CLAUDE_PID in tool shells, and `/clear` in a TUI started with --resume <id>.
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../../src/agents/claude/project-key.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { FakeClock } from '../../../../src/testing/fs/fake-clock.js';
import { type FakeProcess, FakeProcessTable } from '../../../../src/testing/process/index.js';
import { SpyFileSystem } from '../../../helpers/adapter-codex-spy.js';
import { materializeStage, type RealStage } from '../../../helpers/real-stage.js';
import { strs } from '../../../helpers/artifact-strings.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const OLD = '1286deb1-4449-4738-ba2e-11b172ab58a7';
const NEW = '94849f2b-9545-4e05-8416-865e3eb95515';
const NOW = 1_796_000_000_000;

interface Stage extends RealStage {
  config: string;
  tmp: string;
  ctx: HomeDiscoveryContext;
}

function stage(): Stage {
  const root = mkdtempSync(join(tmpdir(), 'mam-claude-332-'));
  roots.push(root);
  const s = materializeStage('claude/01-after-runs', root);
  const tmp = join(root, 'tmp');
  mkdirSync(tmp);
  const env = { ...s.env, TMPDIR: tmp };
  return { ...s, env, config: join(s.home, '.claude'), tmp, ctx: { workspace: join(root, 'ws-claude'), home: s.home, env } };
}

function claude(procs: FakeProcess[], selfEnv: Record<string, string> = {}, fs = nodePorts().fs): ClaudeAdapter {
  const table = new FakeProcessTable(procs, { self: { pid: 50, ppid: 1, argv: ['node', 'mam'], env: selfEnv } });
  return new ClaudeAdapter({ ...nodePorts(), fs, proc: table, clock: new FakeClock({ now: NOW }) });
}

function pidFile(s: Stage, pid: number, id: string, procStart: number): string {
  const path = join(s.config, 'sessions', `${pid}.json`);
  mkdirSync(join(s.config, 'sessions'), { recursive: true });
  writeFileSync(path, JSON.stringify({ pid, sessionId: id, cwd: s.ctx.workspace, startedAt: NOW - 60_000, procStart, version: '2.1.332', kind: 'interactive', status: 'idle' }));
  return path;
}

describe('Claude Code 2.1.332', () => {
  it('a plugin store naming the session (plugins/store/*.json) is now reported as a mention, never touched', async () => {
    const s = stage();
    const store = join(s.config, 'plugins', 'store', 'usage.json');
    mkdirSync(join(s.config, 'plugins', 'store'), { recursive: true });
    writeFileSync(store, JSON.stringify({ 'usage-rows-queued': `${OLD} 3` }));
    const a = claude([]);
    expect(strs(await a.mentions(OLD, s.ctx))).toContain(store);
    await a.purgeArtifacts(OLD, s.ctx);
    expect(readFileSync(store, 'utf8')).toContain(OLD);
    expect(strs(await a.mentions(NEW, s.ctx))).not.toContain(store);
  });

  it('the key and the socket a crash left beside the pid file are no longer orphans: they go with the pid file', async () => {
    const s = stage();
    const pf = pidFile(s, 4242, OLD, 999);
    const key = join(s.config, 'sessions', '4242.9f3c2a.key');
    const otherKey = join(s.config, 'sessions', '4243.77aa.key');
    writeFileSync(key, 'k');
    writeFileSync(otherKey, 'k');
    mkdirSync(join(s.tmp, 'cc-socks'));
    const sock = join(s.tmp, 'cc-socks', '4242.sock');
    writeFileSync(sock, '');
    const a = claude([]);
    const before = strs(await a.residualArtifacts(OLD, s.ctx));
    expect(before).toEqual(expect.arrayContaining([pf, key, sock]));
    const purged = strs(await a.purgeArtifacts(OLD, s.ctx));
    expect(purged).toEqual(expect.arrayContaining([pf, key, sock]));
    for (const p of [pf, key, sock]) expect(existsSync(p), p).toBe(false);
    expect(existsSync(otherKey)).toBe(true);
    expect(await a.residualArtifacts(OLD, s.ctx)).toEqual([]);
  });

  it('a live session keeps its pid file, key and socket', async () => {
    const s = stage();
    const pf = pidFile(s, 4242, OLD, 999);
    const key = join(s.config, 'sessions', '4242.9f3c2a.key');
    writeFileSync(key, 'k');
    const a = claude([{ pid: 4242, ppid: 1, argv: ['claude'], startTicks: 999 }]);
    expect((await a.inUseHolders(OLD, s.ctx)).map((h) => h.signal)).toEqual(['pid-file']);
    await a.purgeArtifacts(OLD, s.ctx);
    expect(existsSync(pf) && existsSync(key)).toBe(true);
  });

  it('transcripts with ~144 KB api-request-blob records per turn: discover still works and reads only heads', async () => {
    const s = stage();
    const transcript = join(s.config, 'projects', claudeProjectKey(s.ctx.workspace), `${OLD}.jsonl`);
    const blob = JSON.stringify({ type: 'api-request-blob', sessionId: OLD, request: { body: 'b'.repeat(144 * 1024) } });
    for (let turn = 0; turn < 40; turn++) appendFileSync(transcript, `${blob}\n`);
    const spy = new SpyFileSystem(nodePorts().fs);
    const got = await claude([], {}, spy).discover(s.ctx);
    expect(got).toContain(OLD);
    const read = spy.calls.filter((c) => c.op === 'readHead' && c.path === transcript).reduce((n, c) => Math.max(n, c.bytes ?? 0), 0);
    expect(read).toBeLessThanOrEqual(64 * 1024);
  });

  it('a transcript that starts with a ~144 KB api-request-blob is still read from a bounded head', async () => {
    const s = stage();
    const id = '4a73f8b1-19ea-4a91-95e7-d65af37e84a7';
    const key = claudeProjectKey(s.ctx.workspace);
    const path = join(s.config, 'projects', key, `${id}.jsonl`);
    mkdirSync(join(s.config, 'projects', key), { recursive: true });
    const blob = JSON.stringify({ type: 'api-request-blob', sessionId: id, request: { body: 'b'.repeat(144 * 1024) } });
    const user = JSON.stringify({ type: 'user', sessionId: id, cwd: s.ctx.workspace, timestamp: '2026-11-30T01:00:00.000Z', version: '2.1.332', message: { role: 'user', content: 'hi' } });
    writeFileSync(path, `${blob}\n${user}\n${`${blob}\n`.repeat(30)}`);
    const spy = new SpyFileSystem(nodePorts().fs);
    expect(await claude([], {}, spy).discover(s.ctx)).toContain(id);
    const read = spy.calls.filter((c) => c.op === 'readHead' && c.path === path).reduce((n, c) => Math.max(n, c.bytes ?? 0), 0);
    expect(read).toBeLessThanOrEqual(256 * 1024);
  });

  it('a purge run from a Claude tool shell is recognised through CLAUDE_PID (the pid file names the conversation)', async () => {
    const s = stage();
    pidFile(s, 4242, OLD, 999);
    const a = claude([{ pid: 4242, ppid: 1, argv: ['claude'], startTicks: 999 }], { CLAUDE_PID: '4242', CLAUDECODE: '1' });
    expect((await a.inUseHolders(OLD, s.ctx)).map((h) => h.pid)).toEqual([4242]);
    const b = claude([{ pid: 4242, ppid: 1, argv: ['claude'], startTicks: 999 }], { CLAUDE_PID: '4242' });
    expect(await b.conversationInUse(NEW, s.ctx)).toBe(false);
  });

  it('after /clear in a TUI started with --resume <id>, the old id no longer reads as in use (the pid file names the new one)', async () => {
    const s = stage();
    pidFile(s, 4242, NEW, 999);
    const tui: FakeProcess = { pid: 4242, ppid: 1, argv: ['claude', '--resume', OLD], startTicks: 999 };
    const a = claude([tui]);
    expect(await a.inUseHolders(OLD, s.ctx)).toEqual([]);
    expect((await a.inUseHolders(NEW, s.ctx)).map((h) => h.signal)).toEqual(['pid-file']);
    // Before /clear (the pid file names the resumed id) it is in use; a stale pid file (another start) proves nothing.
    pidFile(s, 4242, OLD, 999);
    expect((await a.inUseHolders(OLD, s.ctx)).map((h) => h.signal).sort()).toEqual(['command-line', 'pid-file']);
    pidFile(s, 4242, NEW, 111);
    expect((await a.inUseHolders(OLD, s.ctx)).map((h) => h.signal)).toEqual(['command-line']);
  });
});

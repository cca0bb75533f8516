// The fake agent CLIs, started as processes (the process is the point here): one of each agent is started once per file,
// all at the same time, and shared by the tests below — first while they live, then after one clean exit each.
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PurgeService } from '../../src/purge/purge-service.js';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { parseDebugPathsDb } from '../../src/agents/opencode/debug-paths.js';
import { AGENT_NAMES, type AgentName } from '../../src/ids/agent-names.js';
import type { SessionRow } from '../../src/registry/session-row.js';
import { FAKE_AGENT_MARKER, fakeAgentRunDir, installFakeAgents } from '../../src/testing/agents/install-fake-agents.js';
import { type KitDir, kitDir, type Running, runAgent, startAgent } from '../helpers/kit-temp.js';

let kit: KitDir;
let n = 0;
function workspace(tag: string): string {
  n += 1;
  const ws = join(kit.root, `ws-${tag}-${n}`);
  mkdirSync(ws);
  return ws;
}

const fresh = (): string => crypto.randomUUID();

// One live fake agent per agent, each in its own workspace, started together; claude and grok with a pre-assigned id
// (claude's given in upper case: the fake lower-cases it, as the real CLI does).
type Live = Running & { ws: string; epoch: number; pre: string | null };
const live = {} as Record<AgentName, Live>;
beforeAll(async () => {
  kit = await kitDir('agents');
  await installFakeAgents(kit.bin, { home: kit.home });
  const epoch = Math.floor(Date.now() / 1000);
  await Promise.all(AGENT_NAMES.map(async (agent) => {
    const ws = workspace(agent);
    const pre = agent === 'claude' || agent === 'grok' ? fresh() : null;
    const args = pre === null ? [] : ['--session-id', agent === 'claude' ? pre.toUpperCase() : pre];
    live[agent] = { ...(await startAgent(join(kit.bin, agent), args, { cwd: ws, env: kit.env })), ws, epoch, pre };
  }));
});
afterAll(async () => {
  await kit?.dispose();
});

describe('installFakeAgents', () => {
  it('installs one shared script under the six agent names, each an executable that says it is a fake', () => {
    const texts = AGENT_NAMES.map((a) => {
      const file = join(kit.bin, a);
      expect(statSync(file).mode & 0o111).not.toBe(0);
      return readFileSync(file, 'utf8');
    });
    for (const [i, t] of texts.entries()) expect(t.split('\n')[1]).toBe(`${FAKE_AGENT_MARKER}: ${AGENT_NAMES[i]}. Written by installFakeAgents from @mam/core/testing. Reinstall rather than edit.`);
    // Only the baked-in agent differs between the six.
    const normalise = (t: string, a: string): string => t.replaceAll(`"agent":"${a}"`, '"agent":"?"').replace(/^\/\/ .*$/m, '');
    expect(new Set(texts.map((t, i) => normalise(t, AGENT_NAMES[i] as string))).size).toBe(1);
  });
});

const NOT_GROK = AGENT_NAMES.filter((a) => a !== 'grok');

describe('each fake agent, started directly, writes what its adapter finds', () => {
  it.each(NOT_GROK)('%s: discover, verify and capture prove it; in use while alive', async (agent) => {
    const r = live[agent];
    if (r.pre !== null) expect(r.id).toBe(r.pre);
    const adapter = getAdapter(agent, { ports: kit.ports });
    const ctx = kit.ctx({ workspace: r.ws });
    expect(await adapter.discover({ ...ctx, epoch: r.epoch })).toEqual([r.id]);
    expect(await adapter.verifyArtifact(r.id, ctx, 'verify')).toBe(true);
    expect(await adapter.verifyArtifact(r.id, ctx, 'discover')).toBe(true);
    const row: SessionRow = { name: `${agent}-row`, status: 'running', agent, herdr_session_epoch: r.epoch, pane: { cwd: r.ws, pid: r.pid, cmd: agent } };
    expect(await adapter.captureActiveSessionId(row, { ...ctx, panePid: r.pid })).toEqual({ kind: 'captured', id: r.id });
    expect(await adapter.conversationInUse(r.id, ctx)).toBe(true);
    expect(existsSync(join(fakeAgentRunDir(kit.bin), `${r.pid}.json`))).toBe(true);
  });

  it('claude: transcript records carry sessionId, cwd and timestamp; the live-session file has procStart', async () => {
    const r = live.claude;
    const id = r.id;
    const ws = r.ws;
    const transcript = join(kit.home, '.claude', 'projects', claudeProjectKey(ws), `${id}.jsonl`);
    const records = readFileSync(transcript, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.every((rec) => rec['sessionId'] === id && typeof rec['timestamp'] === 'string')).toBe(true);
    expect(records.some((rec) => rec['cwd'] === ws)).toBe(true);
    expect(statSync(transcript).mode & 0o777).toBe(0o600);
    expect(statSync(join(kit.home, '.claude', 'session-env', id)).isDirectory()).toBe(true);
    const sessionFile = join(kit.home, '.claude', 'sessions', `${r.pid}.json`);
    const record = JSON.parse(readFileSync(sessionFile, 'utf8')) as Record<string, unknown>;
    const own = await kit.ports.proc.lookup(r.pid);
    expect(record).toMatchObject({ pid: r.pid, sessionId: id, cwd: ws });
    expect(Math.abs((record['startedAt'] as number) - Date.now())).toBeLessThan(60_000);
    if (own?.startTicks !== undefined) expect(record['procStart']).toBe(String(own.startTicks));
    const holders = await getAdapter('claude', { ports: kit.ports }).inUseHolders(id, kit.ctx({ workspace: ws }));
    expect(holders.map((h) => h.signal).sort()).toEqual(['command-line', 'pid-file']);
  });

  it('claude refuses a pre-assigned id that is already in use, as the real CLI does', async () => {
    const first = live.claude;
    const again = await runAgent(join(kit.bin, 'claude'), ['--session-id', first.id], { cwd: first.ws, env: kit.env });
    expect(again).toMatchObject({ code: 1, stderr: `Error: Session ID ${first.id} is already in use.\n` });
  });

  it('codex: a v7 rollout, a threads row living in the WAL while alive, a snapshot, a held writer lock', async () => {
    const r = live.codex;
    const home = join(kit.home, '.codex');
    expect(r.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(existsSync(join(home, 'state_5.sqlite-wal'))).toBe(true);
    expect(readdirSync(join(home, 'shell_snapshots')).filter((f) => f.startsWith(`${r.id}.`))).toHaveLength(1);
    const held = await kit.ports.proc.holders([join(home, 'thread-writer-locks', `${r.id}.lock`)]);
    expect(held.map((h) => h.pid)).toContain(r.pid);
  });

  it('grok: honours its pre-assigned id, writes the layout grok-build does; discovered, verified, in use while alive', async () => {
    const r = live.grok;
    const id = r.id;
    expect(id).toBe(r.pre);
    const grok = getAdapter('grok', { ports: kit.ports });
    const ctx = kit.ctx({ workspace: r.ws });
    expect(await grok.discover(ctx)).toEqual([id]);
    expect(await grok.verifyArtifact(id, ctx)).toBe(true);
    expect((await grok.inUseHolders(id, ctx)).map((h) => h.signal).sort()).toEqual(['command-line', 'pid-file']);
    expect((await runAgent(join(kit.bin, 'grok'), ['--session-id', id], { cwd: r.ws, env: kit.env })).code).toBe(1); // an id in use is refused
  });
});

describe('after a clean exit (SIGTERM) of each shared agent', () => {
  it('every agent exits with code 0 on SIGTERM', async () => {
    for (const agent of AGENT_NAMES) live[agent].child.kill('SIGTERM');
    for (const agent of AGENT_NAMES) expect(await live[agent].exited, agent).toEqual({ code: 0, signal: null });
  });

  it.each(NOT_GROK)('%s: no longer in use, its artifacts stay and verify, its run record is gone', async (agent) => {
    const r = live[agent];
    const adapter = getAdapter(agent, { ports: kit.ports });
    const ctx = kit.ctx({ workspace: r.ws });
    expect(await adapter.conversationInUse(r.id, ctx)).toBe(false);
    expect(await adapter.hasArtifacts(r.id, ctx)).toBe(true);
    expect(await adapter.verifyArtifact(r.id, ctx)).toBe(true);
    expect(existsSync(join(fakeAgentRunDir(kit.bin), `${r.pid}.json`))).toBe(false);
  });

  it('claude: the live-session file goes on a clean exit, the transcript stays', () => {
    const r = live.claude;
    expect(existsSync(join(kit.home, '.claude', 'sessions', `${r.pid}.json`))).toBe(false);
    expect(existsSync(join(kit.home, '.claude', 'projects', claudeProjectKey(r.ws), `${r.id}.jsonl`))).toBe(true);
  });

  it('codex: a clean exit checkpoints, the lock file stays; resume appends to the same rollout and leaves another snapshot', async () => {
    const r = live.codex;
    const home = join(kit.home, '.codex');
    expect(existsSync(join(home, 'state_5.sqlite-wal'))).toBe(false);
    expect(existsSync(join(home, 'thread-writer-locks', `${r.id}.lock`))).toBe(true);
    const again = await startAgent(join(kit.bin, 'codex'), ['resume', r.id], { cwd: r.ws, env: kit.env });
    expect(again.id).toBe(r.id);
    expect(readdirSync(join(home, 'shell_snapshots')).filter((f) => f.startsWith(`${r.id}.`))).toHaveLength(2);
    again.child.kill('SIGTERM');
    await again.exited;
  });

  it('grok: no longer in use; purged', async () => {
    const r = live.grok;
    const grok = getAdapter('grok', { ports: kit.ports });
    const ctx = kit.ctx({ workspace: r.ws });
    expect(await grok.conversationInUse(r.id, ctx)).toBe(false);
    expect((await grok.purgeArtifacts(r.id, ctx)).length).toBe(1);
    expect(await grok.residualArtifacts(r.id, ctx)).toEqual([]);
    expect(await grok.discover(ctx)).toEqual([]);
  });

  it('resumes an existing conversation under every resume spelling, and refuses an unknown one', async () => {
    const cases: Array<[AgentName, string[]]> = [['claude', ['--resume']], ['opencode', ['--session']], ['agy', ['--conversation']], ['hermes', ['-r']]];
    await Promise.all(cases.map(async ([agent, flag]) => {
      const first = live[agent];
      const again = await startAgent(join(kit.bin, agent), [...flag, first.id], { cwd: first.ws, env: kit.env });
      expect(again.id).toBe(first.id);
      again.child.kill('SIGTERM');
      await again.exited;
      const unknown = agent === 'opencode' ? 'ses_0000000000ffAAAAAAAAAAAAAA' : fresh();
      const refused = await runAgent(join(kit.bin, agent), [...flag, unknown], { cwd: first.ws, env: kit.env });
      expect(refused.code, `${agent}: ${refused.stderr}`).toBe(1);
    }));
  });
});

describe('preflight, subcommands and refusals', () => {
  it('MAM_FAKE_<AGENT>_PREFLIGHT_FAIL=N fails --version and any start with N, writing nothing; grok authOk sees it', async () => {
    const ws = workspace('preflight');
    const env = { ...kit.env, MAM_FAKE_GROK_PREFLIGHT_FAIL: '7', MAM_FAKE_HERMES_PREFLIGHT_FAIL: '1' };
    expect(await runAgent(join(kit.bin, 'grok'), ['--version'], { cwd: ws, env })).toMatchObject({ code: 7, stdout: '' });
    expect((await runAgent(join(kit.bin, 'grok'), ['--session-id', fresh()], { cwd: ws, env })).code).toBe(7);
    const before = readdirSync(kit.home).sort();
    expect(await runAgent(join(kit.bin, 'hermes'), [], { cwd: ws, env })).toMatchObject({ code: 1, stderr: 'hermes: preflight failed (MAM_FAKE_HERMES_PREFLIGHT_FAIL=1)\n' });
    expect(readdirSync(kit.home).sort()).toEqual(before);
    expect(await runAgent(join(kit.bin, 'grok'), ['--version'], { cwd: ws, env: kit.env })).toMatchObject({ code: 0, stdout: 'grok 0.0.0-fake\n' });
    const grok = getAdapter('grok', { ports: kit.ports });
    expect(await grok.authOk(kit.ctx({ workspace: ws, env }))).toBe(false);
    expect(await grok.authOk(kit.ctx({ workspace: ws }))).toBe(true);
  });

  it('opencode: debug paths prints the 1.x lines (no db line), session delete removes the rows the adapter reads', async () => {
    const ws = workspace('opencode-cli');
    const paths = await runAgent(join(kit.bin, 'opencode'), ['debug', 'paths'], { cwd: ws, env: kit.env });
    expect(paths.code).toBe(0);
    expect(paths.stdout).toContain(`data       ${join(kit.home, '.local', 'share', 'opencode')}\n`);
    expect(parseDebugPathsDb(paths.stdout)).toBeNull();
    // The file's shared opencode conversation, stopped (and resumed and stopped again) above: on disk, no process.
    const r = live.opencode;
    const opencode = getAdapter('opencode', { ports: kit.ports });
    expect(await opencode.hasArtifacts(r.id, kit.ctx({ workspace: r.ws }))).toBe(true);
    expect((await runAgent(join(kit.bin, 'opencode'), ['session', 'delete', r.id], { cwd: ws, env: kit.env })).code).toBe(0);
    // The rows are gone (no conversation verifies); the deleted rows' copies in the database's pages are still an
    // artifact of the id until a purge scrubs them (issue 31: no bytes of a conversation left behind unreported).
    expect(await opencode.verifyArtifact(r.id, kit.ctx({ workspace: r.ws }))).toBe(false);
    // Unscoped: copies in freed pages name no workspace.
    const { workspace: _ws, ...unscoped } = kit.ctx({ workspace: r.ws });
    const purged = await new PurgeService({ ports: kit.ports }).purge('opencode', r.id, unscoped);
    expect(purged.kind).toBe('purged');
    expect(await opencode.hasArtifacts(r.id, kit.ctx({ workspace: r.ws }))).toBe(false);
  });

  it('refuses, with exit 2 and nothing written, a location variable outside the sandbox home or an id where the CLI takes none', async () => {
    const ws = workspace('outside');
    const outside = join(kit.root, 'elsewhere');
    const r = await runAgent(join(kit.bin, 'codex'), [], { cwd: ws, env: { ...kit.env, CODEX_HOME: outside } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('outside the sandbox home');
    expect(existsSync(outside)).toBe(false);
    expect((await runAgent(join(kit.bin, 'codex'), ['--session-id', fresh()], { cwd: ws, env: kit.env })).code).toBe(2);
    expect((await runAgent(join(kit.bin, 'claude'), ['--session-id', 'not-a-uuid'], { cwd: ws, env: kit.env })).code).toBe(2);
  });
});

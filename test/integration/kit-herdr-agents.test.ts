import { existsSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';
import type { HerdrPort, HerdrResult } from '../../src/ports/herdr.js';
import { installFakeAgents } from '../../src/testing/agents/install-fake-agents.js';
import { createFakeHerdrState } from '../../src/testing/herdr/fake-herdr-editor.js';
import { installFakeHerdr } from '../../src/testing/herdr/install-fake-herdr.js';
import { type KitDir, alive, kitDir, until } from '../helpers/kit-temp.js';

let kit: KitDir;
let herdr: HerdrPort;
let herdrBin: string;

beforeAll(async () => {
  kit = await kitDir('herdr');
  await installFakeAgents(kit.bin, { home: kit.home });
  herdrBin = await installFakeHerdr(kit.bin, { statePath: join(kit.root, 'herdr.json'), state: createFakeHerdrState() });
  herdr = nodePorts({ env: kit.env, herdrBin }).herdr;
});
afterAll(async () => {
  await kit.dispose();
});

function ok<T>(r: HerdrResult<T>): T {
  if (r.kind !== 'ok') throw new Error(`herdr: ${JSON.stringify(r)}`);
  return r.value;
}

let n = 0;
async function pane(): Promise<{ paneId: string; ws: string }> {
  n += 1;
  const ws = join(kit.root, `ws-${n}`);
  mkdirSync(ws);
  const created = ok(await herdr.workspaceCreate({ cwd: ws, label: `lbl-${n}` }));
  return { paneId: created.root_pane.pane_id, ws };
}

async function pidOf(paneId: string): Promise<number> {
  const pid = ok(await herdr.paneProcessInfo(paneId)).foreground_processes?.[0]?.pid;
  if (pid === undefined) throw new Error('no pid');
  return pid;
}

async function gone(name: string): Promise<boolean> {
  const r = await herdr.agentGet(name);
  return r.kind === 'error' && r.code === 'agent_not_found';
}

describe('the fake herdr executable runs real agent processes', () => {
  it("agent start spawns the fake agent in the pane's cwd with the pane variables; it is ready, its pid real, its id reported", async () => {
    const { paneId, ws } = await pane();
    const id = crypto.randomUUID();
    const started = ok(await herdr.agentStart('rev-a', { kind: 'claude', pane: paneId, timeoutMs: 20_000, argv: ['--session-id', id] }));
    expect(started).toMatchObject({ argv: ['claude', '--session-id', id], agent: { name: 'rev-a', agent: 'claude', agent_status: 'idle', interactive_ready: true } });
    const pid = await pidOf(paneId);
    expect(await alive(kit.ports, pid)).toBe(true);
    expect(readlinkSync(`/proc/${pid}/cwd`)).toBe(ws);
    expect(readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')).toContain(`HERDR_PANE_ID=${paneId}`);
    await until(async () => ok(await herdr.agentGet('rev-a')).agent_session !== undefined, 5_000, 'agent_session');
    expect(ok(await herdr.agentGet('rev-a')).agent_session).toEqual({ source: 'herdr:claude', agent: 'claude', kind: 'id', value: id });
    expect(await getAdapter('claude', { ports: kit.ports }).verifyArtifact(id, kit.ctx({ workspace: ws }))).toBe(true);
  });

  it('/exit then Enter: the agent exits cleanly (its claude session file goes), leaves agent list, then the pane closes', async () => {
    const { paneId } = await pane();
    ok(await herdr.agentStart('rev-b', { kind: 'claude', pane: paneId, timeoutMs: 20_000, argv: ['--session-id', crypto.randomUUID()] }));
    const pid = await pidOf(paneId);
    const sessionFile = join(kit.home, '.claude', 'sessions', `${pid}.json`);
    expect(existsSync(sessionFile)).toBe(true);
    ok(await herdr.paneSendText(paneId, '/exit'));
    ok(await herdr.paneSendKeys(paneId, ['enter']));
    await until(() => gone('rev-b'), 5_000, 'agent_not_found');
    expect(await alive(kit.ports, pid)).toBe(false);
    expect(existsSync(sessionFile)).toBe(false);
    expect(ok(await herdr.agentList()).some((a) => a.name === 'rev-b')).toBe(false);
    ok(await herdr.paneClose(paneId));
  });

  it('pane close SIGKILLs a live agent: the process is gone and its session file is left stale, as after a crash', async () => {
    const { paneId } = await pane();
    ok(await herdr.agentStart('rev-c', { kind: 'claude', pane: paneId, timeoutMs: 20_000, argv: ['--session-id', crypto.randomUUID()] }));
    const pid = await pidOf(paneId);
    ok(await herdr.paneClose(paneId));
    await until(async () => !(await alive(kit.ports, pid)), 5_000, 'the agent to die');
    expect(existsSync(join(kit.home, '.claude', 'sessions', `${pid}.json`))).toBe(true);
    expect(await gone('rev-c')).toBe(true);
  });

  it('an agent whose process died on its own is gone on the next call; a post-discovered one reported its own id', async () => {
    const { paneId, ws } = await pane();
    ok(await herdr.agentStart('coder-d', { kind: 'codex', pane: paneId, timeoutMs: 20_000 }));
    await until(async () => ok(await herdr.agentGet('coder-d')).agent_session !== undefined, 5_000, 'agent_session');
    const id = ok(await herdr.agentGet('coder-d')).agent_session?.value as string;
    expect(await getAdapter('codex', { ports: kit.ports }).verifyArtifact(id, kit.ctx({ workspace: ws }), 'discover')).toBe(true);
    process.kill(await pidOf(paneId), 'SIGKILL');
    await until(() => gone('coder-d'), 5_000, 'agent_not_found');
    expect(ok(await herdr.paneProcessInfo(paneId)).foreground_processes?.[0]?.name).toBe('bash');
  });

  it('a fake agent failing its preflight fails the start (agent_start_failed) and leaves the pane a free shell', async () => {
    const { paneId } = await pane();
    const failing = nodePorts({ env: { ...kit.env, MAM_FAKE_CLAUDE_PREFLIGHT_FAIL: '3' }, herdrBin }).herdr;
    const r = await failing.agentStart('rev-e', { kind: 'claude', pane: paneId, timeoutMs: 20_000, argv: ['--session-id', crypto.randomUUID()] });
    expect(r).toMatchObject({ kind: 'error', code: 'agent_start_failed', message: 'agent process exited before becoming interactive' });
    expect(ok(await herdr.agentStart('rev-e', { kind: 'grok', pane: paneId, timeoutMs: 20_000 })).agent.name).toBe('rev-e');
  });
});

describe('which executables the fake herdr spawns', () => {
  it('auto (the default) never spawns an executable that is not a fake agent; spawn fails a start whose executable is missing', async () => {
    const dir = join(kit.root, 'other-bin');
    mkdirSync(dir);
    const marker = join(kit.root, 'real-cli-ran');
    writeFileSync(join(dir, 'claude'), `#!/bin/sh\ntouch ${marker}\nsleep 30\n`, { mode: 0o755 });
    const env = { ...kit.env, PATH: `${dir}:${kit.env['PATH']?.split(':').slice(1).join(':') ?? ''}` };
    const auto = nodePorts({ env, herdrBin: await installFakeHerdr(dir, { statePath: join(dir, 'h.json'), state: createFakeHerdrState() }) }).herdr;
    const created = ok(await auto.workspaceCreate({ cwd: kit.ws }));
    const simulated = ok(await auto.agentStart('rev', { kind: 'claude', pane: created.root_pane.pane_id, timeoutMs: 20_000 }));
    expect(simulated.agent.interactive_ready).toBe(true);
    expect(existsSync(marker)).toBe(false);
    const strict = nodePorts({ env, herdrBin: await installFakeHerdr(join(dir, 'strict'), { statePath: join(dir, 's.json'), state: createFakeHerdrState(), agents: 'spawn' }) }).herdr;
    const p = ok(await strict.workspaceCreate({ cwd: kit.ws }));
    const missing = await strict.agentStart('k', { kind: 'kiro', pane: p.root_pane.pane_id, timeoutMs: 20_000 });
    expect(missing).toMatchObject({ kind: 'error', code: 'agent_start_failed', message: 'agent process exited before becoming interactive: kiro-cli: not found on PATH' });
  });
});

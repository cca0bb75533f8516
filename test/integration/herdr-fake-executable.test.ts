import { execa } from 'execa';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HerdrCli } from '../../src/node/herdr-cli.js';
import {
  createFakeHerdrState,
  installFakeHerdr,
  readFakeHerdrSpyLog,
  readFakeHerdrState,
  seedFakeHerdrState,
  updateFakeHerdrState,
} from '../../src/testing/herdr/index.js';
import { herdrTempDir } from '../helpers/herdr-temp.js';

describe('the fake herdr executable', () => {
  let dir: string;
  let remove: () => Promise<void>;
  let statePath: string;
  let binDir: string;

  beforeEach(async () => {
    ({ dir, remove } = await herdrTempDir('exe'));
    statePath = join(dir, 'state.json');
    binDir = join(dir, 'bin');
  });
  afterEach(async () => {
    await remove();
  });

  // The caller's own HERDR_SESSION must not leak in: only what a test sets.
  const herdr = (bin: string, args: string[], env: Record<string, string> = {}) => {
    const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'HERDR_SESSION'));
    return execa(bin, args, { reject: false, stripFinalNewline: false, extendEnv: false, env: { ...base, ...env } });
  };

  it('prints one compact JSON line for JSON commands, nothing for silent ones, plain text for usage', async () => {
    const path = await installFakeHerdr(binDir, { statePath });
    await updateFakeHerdrState(statePath, (e) => e.addWorkspace({}));
    const list = await herdr(path, ['workspace', 'list']);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toMatch(/^\{"id":"cli:workspace:list","result":\{"type":"workspace_list","workspaces":\[\{.*\}\]\}\}\n$/);
    expect(list.stderr).toBe('');
    const silent = await herdr(path, ['pane', 'send-keys', 'w1:p1', 'enter']);
    expect([silent.exitCode, silent.stdout, silent.stderr]).toEqual([0, '', '']);
    const usage = await herdr(path, ['agent', 'get']);
    expect([usage.exitCode, usage.stdout, usage.stderr]).toEqual([2, '', 'usage: herdr agent get <target>\n']);
  });

  it('a missing state file is a machine with no server; status server --json still exits 0', async () => {
    const path = await installFakeHerdr(binDir, { statePath });
    await rm(statePath);
    const list = await herdr(path, ['agent', 'list']);
    expect(list.exitCode).toBe(1);
    expect(JSON.parse(list.stderr)).toMatchObject({ error: { code: 'server_not_running' } });
    const status = await herdr(path, ['status', 'server', '--json']);
    expect(status.exitCode).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: false, status: 'not_running' });
  });

  it('honours HERDR_SESSION, and --session beats it', async () => {
    const path = await installFakeHerdr(binDir, { statePath, state: createFakeHerdrState({ sessions: ['alt'] }) });
    await updateFakeHerdrState(statePath, (e) => e.addAgent({ session: 'alt', name: 'rev', kind: 'claude' }));
    expect((await herdr(path, ['agent', 'get', 'rev'], { HERDR_SESSION: 'alt' })).exitCode).toBe(0);
    expect((await herdr(path, ['agent', 'get', 'rev', '--session', 'default'], { HERDR_SESSION: 'alt' })).exitCode).toBe(1);
  });

  it('logs every call to the spy log as {argv, pid, ts}', async () => {
    const spyLogPath = join(dir, 'spy.jsonl');
    const path = await installFakeHerdr(binDir, { statePath, spyLogPath });
    const cli = new HerdrCli({ bin: path });
    await cli.agentList({ session: 'default' });
    await cli.paneClose('w9:p1');
    const log = await readFakeHerdrSpyLog(spyLogPath);
    expect(log.map((e) => e.argv)).toEqual([['--session', 'default', 'agent', 'list'], ['pane', 'close', 'w9:p1']]);
    for (const e of log) {
      expect(Number.isInteger(e.pid) && e.pid > 0).toBe(true);
      expect(Math.abs(e.ts - Date.now())).toBeLessThan(60_000);
    }
    expect(await readFakeHerdrSpyLog(join(dir, 'none.jsonl'))).toEqual([]);
  });

  it('runs a hook at the chosen call number only, with the argv in its env', async () => {
    const out = join(dir, 'hook.txt');
    const path = await installFakeHerdr(binDir, { statePath, hook: { atCall: 2, command: `printf '%s %s\\n' "$FAKE_HERDR_CALL" "$FAKE_HERDR_ARGV" >> '${out}'` } });
    for (let i = 0; i < 3; i += 1) await herdr(path, ['agent', 'list']);
    expect(await readFile(out, 'utf8')).toBe('2 ["agent","list"]\n');
  });

  it('runs a matching hook before answering; the hook may call herdr itself', async () => {
    const out = join(dir, 'panes-at-close.json');
    const path = await installFakeHerdr(binDir, { statePath, hook: { match: 'pane close', command: `'${join(binDir, 'herdr')}' pane list > '${out}'` } });
    const ws = await updateFakeHerdrState(statePath, (e) => e.addWorkspace({}));
    const closed = await herdr(path, ['pane', 'close', ws.paneId]);
    expect(closed.exitCode).toBe(0);
    const seenByHook = JSON.parse(await readFile(out, 'utf8')) as { result: { panes: Array<{ pane_id: string }> } };
    expect(seenByHook.result.panes.map((p) => p.pane_id)).toEqual([ws.paneId]);
    expect((await readFakeHerdrState(statePath)).sessions['default']?.workspaces).toEqual([]);
  });

  it('serialises concurrent calls on the state file: none is lost', async () => {
    const path = await installFakeHerdr(binDir, { statePath });
    const results = await Promise.all(Array.from({ length: 12 }, () => herdr(path, ['workspace', 'create'])));
    const ids = results.map((r) => (JSON.parse(r.stdout) as { result: { workspace: { workspace_id: string } } }).result.workspace.workspace_id);
    expect(new Set(ids).size).toBe(12);
    const state = await readFakeHerdrState(statePath);
    expect(state.sessions['default']?.workspaces).toHaveLength(12);
    expect(state.calls).toBe(12);
  });

  it('takes over a lock left by a dead process', async () => {
    const path = await installFakeHerdr(binDir, { statePath });
    const dead = await execa('node', ['-e', 'process.stdout.write(String(process.pid))']);
    await writeFile(`${statePath}.lock`, dead.stdout);
    const r = await herdr(path, ['agent', 'list']);
    expect(r.exitCode).toBe(0);
  });

  it('applies a transition scheduled at a wall-clock time while a wait polls', async () => {
    const path = await installFakeHerdr(binDir, { statePath });
    await updateFakeHerdrState(statePath, (e) => {
      e.addAgent({ name: 'rev', kind: 'claude', status: 'working' });
      e.schedule('rev', 'idle', { atMs: Date.now() + 400 });
    });
    const started = Date.now();
    const r = await new HerdrCli({ bin: path }).agentWait('rev', { until: ['idle'], timeoutMs: 10_000 });
    expect(r).toMatchObject({ kind: 'ok', value: { agent_status: 'idle' } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('applies a transition after a number of calls', async () => {
    const path = await installFakeHerdr(binDir, { statePath });
    await seedFakeHerdrState(statePath, (e) => {
      e.addAgent({ name: 'rev', kind: 'claude', status: 'idle' });
      e.schedule('rev', 'exit', { afterCalls: 2 });
    });
    const cli = new HerdrCli({ bin: path });
    expect(await cli.agentPresence('rev')).toBe('present');
    expect(await cli.agentPresence('rev')).toBe('absent');
  });

  it('installs over an existing state file without touching it unless a state is given', async () => {
    await seedFakeHerdrState(statePath, (e) => e.addWorkspace({ label: 'kept' }));
    await installFakeHerdr(binDir, { statePath });
    expect((await readFakeHerdrState(statePath)).sessions['default']?.workspaces[0]?.label).toBe('kept');
    await installFakeHerdr(binDir, { statePath, state: createFakeHerdrState() });
    expect((await readFakeHerdrState(statePath)).sessions['default']?.workspaces).toEqual([]);
  });
});

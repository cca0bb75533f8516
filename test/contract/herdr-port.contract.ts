import { afterAll, beforeAll, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import type { HerdrPort, HerdrResult } from '../../src/ports/herdr.js';
import type { FakeHerdrAgentSeed, FakeHerdrEditor, FakeHerdrSeeded } from '../../src/testing/herdr/index.js';
import { herdrPause } from '../helpers/herdr-real-clock.js';

/** What a {@link herdrPortContract} setup provides. */
export interface HerdrContractHarness {
  port: HerdrPort;
  /** Two running servers with nothing on them, and one server name that is not running. */
  names: { session: string; otherSession: string; stoppedSession: string };
  /** An existing directory for workspace cwds. */
  cwd: string;
  /** Back to the starting world (run before every test). */
  reset(): Promise<void>;
  /** Scripts the world; absent for a real herdr (those tests skip). */
  edit?: <T>(fn: (e: FakeHerdrEditor) => T) => Promise<T>;
  teardown(): Promise<void>;
}

const NAME_MESSAGE = "agent name must start with a lowercase letter and contain only lowercase letters, digits, '-' or '_' (1-32 characters)";

function ok<T>(r: HerdrResult<T>): T {
  if (r.kind !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(r)}`);
  return r.value;
}

/** The semantics every HerdrPort shares: FakeHerdr in-process, HerdrCli over the fake executable, HerdrCli over a real herdr. */
export function herdrPortContract(name: string, setup: () => Promise<HerdrContractHarness>, opts: { skip?: string } = {}): void {
  const title = `HerdrPort contract: ${name}${opts.skip === undefined ? '' : ` (skipped: ${opts.skip})`}`;
  describe.skipIf(opts.skip !== undefined)(title, () => {
    let h: HerdrContractHarness;
    let s: { session: string };

    beforeAll(async () => {
      h = await setup();
      s = { session: h.names.session };
    });
    afterAll(async () => {
      await h?.teardown();
    });
    beforeEach(async () => {
      await h.reset();
    });

    const edit = async <T>(ctx: TestContext, fn: (e: FakeHerdrEditor) => T): Promise<T> => {
      if (h.edit === undefined) ctx.skip('needs a scriptable herdr');
      return (h.edit as NonNullable<typeof h.edit>)(fn);
    };
    const seedAgent = (ctx: TestContext, seed: Omit<FakeHerdrAgentSeed, 'session'>): Promise<FakeHerdrSeeded> =>
      edit(ctx, (e) => e.addAgent({ cwd: h.cwd, ...seed, session: h.names.session }));

    describe('servers and sessions', () => {
      it('server status says running, or not_running (still an answer) for a stopped server', async () => {
        expect(ok(await h.port.serverStatus(s))).toMatchObject({ status: 'running', running: true });
        expect(ok(await h.port.serverStatus({ session: h.names.stoppedSession }))).toMatchObject({ status: 'not_running', running: false });
      });

      it('a call to a stopped server is server_not_running, never a transport error', async () => {
        const r = await h.port.workspaceList({ session: h.names.stoppedSession });
        expect(r).toMatchObject({ kind: 'error', code: 'server_not_running', exitCode: 1 });
      });

      it('--session routes to separate servers', async () => {
        const created = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        const here = ok(await h.port.workspaceList(s)).map((w) => w.workspace_id);
        const there = ok(await h.port.paneList(undefined, { session: h.names.otherSession })).map((p) => p.pane_id);
        expect(here).toContain(created.workspace.workspace_id);
        expect(there).not.toContain(created.root_pane.pane_id);
      });
    });

    describe('workspaces and panes', () => {
      it('create, list, close a workspace', async () => {
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd, label: 'contract' }, s));
        expect(c.workspace.label).toBe('contract');
        expect(c.root_pane.workspace_id).toBe(c.workspace.workspace_id);
        expect(c.root_pane.pane_id.startsWith(`${c.workspace.workspace_id}:`)).toBe(true);
        expect(ok(await h.port.workspaceList(s)).map((w) => w.workspace_id)).toContain(c.workspace.workspace_id);
        expect(ok(await h.port.workspaceClose(c.workspace.workspace_id, s))).toBeUndefined();
        expect(ok(await h.port.workspaceList(s)).map((w) => w.workspace_id)).not.toContain(c.workspace.workspace_id);
        expect(await h.port.paneGet(c.root_pane.pane_id, s)).toMatchObject({ kind: 'error', code: 'pane_not_found' });
      });

      it('closing an unknown workspace is workspace_not_found', async () => {
        expect(await h.port.workspaceClose('w0ZZ', s)).toMatchObject({ kind: 'error', code: 'workspace_not_found' });
      });

      it('pane list (all, or one workspace) and pane get', async () => {
        const a = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        const b = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        const all = ok(await h.port.paneList(undefined, s)).map((p) => p.pane_id);
        expect(all).toEqual(expect.arrayContaining([a.root_pane.pane_id, b.root_pane.pane_id]));
        expect(ok(await h.port.paneList({ workspace: a.workspace.workspace_id }, s)).map((p) => p.pane_id)).toEqual([a.root_pane.pane_id]);
        const pane = ok(await h.port.paneGet(a.root_pane.pane_id, s));
        expect(pane).toMatchObject({ pane_id: a.root_pane.pane_id, workspace_id: a.workspace.workspace_id, agent_status: 'unknown' });
        expect(await h.port.paneGet('w0ZZ:p1', s)).toMatchObject({ kind: 'error', code: 'pane_not_found', message: 'pane w0ZZ:p1 not found' });
      });

      it('closing the last pane closes its workspace', async () => {
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        expect(ok(await h.port.paneClose(c.root_pane.pane_id, s))).toBeUndefined();
        expect(ok(await h.port.workspaceList(s)).map((w) => w.workspace_id)).not.toContain(c.workspace.workspace_id);
        expect(await h.port.paneClose(c.root_pane.pane_id, s)).toMatchObject({ kind: 'error', code: 'pane_not_found' });
      });

      it('pane process-info names the shell, and the agent as the foreground process', async (ctx) => {
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        const shell = ok(await h.port.paneProcessInfo(c.root_pane.pane_id, s));
        expect(shell.pane_id).toBe(c.root_pane.pane_id);
        expect(typeof shell.shell_pid).toBe('number');
        expect(await h.port.paneProcessInfo('w0ZZ:p9', s)).toMatchObject({ kind: 'error', code: 'pane_not_found' });
        const seeded = await seedAgent(ctx, { name: 'proc', kind: 'codex', pid: 4242, argv: ['node', '/bin/codex', 'resume'] });
        const info = ok(await h.port.paneProcessInfo(seeded.paneId, s));
        expect(info.foreground_processes?.[0]).toMatchObject({ pid: 4242, argv: ['node', '/bin/codex', 'resume'] });
      });

      it('pane read prints the text; send-text and send-keys are silent successes', async (ctx) => {
        const seeded = await edit(ctx, (e) => e.addWorkspace({ session: h.names.session, cwd: h.cwd }));
        await edit(ctx, (e) => e.setBuffer(seeded.paneId, 'one\ntwo\nthree\n', s));
        expect(ok(await h.port.paneRead(seeded.paneId, {}, s))).toBe('one\ntwo\nthree\n');
        expect(ok(await h.port.paneRead(seeded.paneId, { lines: 2, source: 'recent' }, s))).toBe('two\nthree\n');
        expect(ok(await h.port.paneSendText(seeded.paneId, 'echo hi', s))).toBeUndefined();
        expect(ok(await h.port.paneSendKeys(seeded.paneId, ['enter'], s))).toBeUndefined();
        expect(await h.port.paneRead('w0ZZ:p1', {}, s)).toMatchObject({ kind: 'error', code: 'pane_not_found' });
      });
    });

    describe('agent start', () => {
      it('rejects a name outside [a-z][a-z0-9_-]{0,31} with herdr message', async () => {
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        for (const bad of ['Reviewer', '9x', 'a.b', `a${'b'.repeat(32)}`]) {
          expect(await h.port.agentStart(bad, { kind: 'claude', pane: c.root_pane.pane_id }, s)).toEqual({
            kind: 'error', code: 'invalid_agent_name', message: NAME_MESSAGE, exitCode: 1,
          });
        }
      });

      it('an unknown kind is a usage error (the CLI refuses it before asking the server)', async () => {
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        expect(await h.port.agentStart('rev', { kind: 'notakind', pane: c.root_pane.pane_id }, s)).toMatchObject({
          kind: 'error', code: 'usage', exitCode: 2, message: expect.stringContaining('notakind'),
        });
      });

      it.each([3000, 300001, 1])('a timeout of %s ms is invalid_agent_timeout (3000 < t <= 300000)', async (timeoutMs) => {
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        expect(await h.port.agentStart('rev', { kind: 'claude', pane: c.root_pane.pane_id, timeoutMs }, s)).toMatchObject({ kind: 'error', code: 'invalid_agent_timeout' });
      });

      it('an unknown pane is agent_pane_not_found', async () => {
        expect(await h.port.agentStart('rev', { kind: 'claude', pane: 'w0ZZ:p1' }, s)).toMatchObject({ kind: 'error', code: 'agent_pane_not_found' });
      });

      it('starts an agent of the canonical kind with its args, then the name is taken and the pane busy', async (ctx) => {
        if (h.edit === undefined) ctx.skip('a real start needs the agent installed');
        const c = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        const started = ok(await h.port.agentStart('rev', { kind: 'Claude-Code', pane: c.root_pane.pane_id, timeoutMs: 300000, argv: ['--model', 'x'] }, s));
        expect(started.agent).toMatchObject({ name: 'rev', agent: 'claude', pane_id: c.root_pane.pane_id, interactive_ready: true });
        expect(['idle', 'blocked', 'done']).toContain(started.agent.agent_status);
        expect(started.argv).toEqual(['claude', '--model', 'x']);
        const other = ok(await h.port.workspaceCreate({ cwd: h.cwd }, s));
        const taken = await h.port.agentStart('rev', { kind: 'codex', pane: other.root_pane.pane_id }, s);
        expect(taken).toMatchObject({ kind: 'error', code: 'agent_name_taken', message: expect.stringContaining(`pane_id=${c.root_pane.pane_id}`) });
        expect(await h.port.agentStart('rev2', { kind: 'codex', pane: c.root_pane.pane_id }, s)).toMatchObject({ kind: 'error', code: 'agent_pane_busy' });
      });
    });

    describe('agents', () => {
      it('list and get: the snapshot, with agent_session when reported', async (ctx) => {
        const agentSession = { source: 'herdr:claude', agent: 'claude', kind: 'id' as const, value: '5b1c0000-0000-4000-8000-000000000001' };
        const seeded = await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'working', agentSession });
        await seedAgent(ctx, { name: 'other', kind: 'codex' });
        const list = ok(await h.port.agentList(s));
        expect(list.map((a) => a.name)).toEqual(['rev', 'other']);
        const got = ok(await h.port.agentGet('rev', s));
        expect(got).toMatchObject({ name: 'rev', agent: 'claude', agent_status: 'working', pane_id: seeded.paneId, agent_session: agentSession });
        expect(typeof got.state_change_seq).toBe('number');
        expect(got).not.toHaveProperty('pid');
        expect(ok(await h.port.agentGet(seeded.paneId, s)).name).toBe('rev');
        expect(await h.port.agentGet('nobody', s)).toMatchObject({ kind: 'error', code: 'agent_not_found', message: 'agent target nobody not found' });
      });

      it('read and send-keys', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', buffer: 'a\nb\nc' });
        expect(ok(await h.port.agentRead('rev', {}, s))).toBe('a\nb\nc');
        expect(ok(await h.port.agentRead('rev', { lines: 1 }, s))).toBe('c');
        expect(ok(await h.port.agentSendKeys('rev', ['esc', 'enter'], s))).toBeUndefined();
        expect(await h.port.agentSendKeys('rev', ['not-a-key'], s)).toMatchObject({ kind: 'error', code: 'invalid_key', message: 'unsupported key not-a-key' });
        expect(await h.port.agentRead('nobody', {}, s)).toMatchObject({ kind: 'error', code: 'agent_not_found' });
      });

      it('prompt without --wait answers at once with the agent', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'idle' });
        const r = ok(await h.port.agentPrompt('rev', 'review the diff', {}, s));
        expect(r.name).toBe('rev');
        expect(ok(await h.port.agentRead('rev', {}, s))).toContain('review the diff');
      });

      it('prompt --wait returns once the agent went through work back to a wanted status', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'idle' });
        const before = ok(await h.port.agentGet('rev', s)).state_change_seq;
        const r = ok(await h.port.agentPrompt('rev', 'go', { wait: true, until: ['idle'], timeoutMs: 5000 }, s));
        expect(r.agent_status).toBe('idle');
        expect(r.state_change_seq).toBeGreaterThan(before);
      });

      it('prompt --until without --wait is a usage error', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude' });
        expect(await h.port.agentPrompt('rev', 'go', { until: ['idle'] }, s)).toMatchObject({ kind: 'error', code: 'usage', exitCode: 2 });
      });
    });

    describe('agent wait', () => {
      it('returns at once when the status already matches', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'blocked' });
        const r = ok(await h.port.agentWait('rev', { until: ['idle', 'blocked'], timeoutMs: 60_000 }, s));
        expect(r.agent_status).toBe('blocked');
      });

      it('times out with herdr error code timeout', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'working' });
        expect(await h.port.agentWait('rev', { until: ['idle'], timeoutMs: 150 }, s)).toEqual({
          kind: 'error', code: 'timeout', message: 'timed out waiting for agent status', exitCode: 1,
        });
      });

      it('follows scripted status changes until one is in the set', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'working' });
        await edit(ctx, (e) => e.queueStatuses('rev', ['working', 'blocked', 'idle'], s));
        expect(ok(await h.port.agentWait('rev', { until: ['idle'], timeoutMs: 10_000 }, s)).agent_status).toBe('idle');
      });

      it('sees a change made while it waits', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'working' });
        const waiting = h.port.agentWait('rev', { until: ['done'], timeoutMs: 10_000 }, s);
        await herdrPause(300);
        await edit(ctx, (e) => e.setStatus('rev', 'done', s));
        expect(ok(await waiting).agent_status).toBe('done');
      });

      it('an agent that exits mid-wait ends it with agent_not_running', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude', status: 'working' });
        await edit(ctx, (e) => e.queueStatuses('rev', ['working', 'exit'], s));
        expect(await h.port.agentWait('rev', { until: ['idle'], timeoutMs: 10_000 }, s)).toMatchObject({ kind: 'error', code: 'agent_not_running' });
      });

      it('an unknown target is agent_not_found', async () => {
        expect(await h.port.agentWait('nobody', { until: ['idle'], timeoutMs: 1000 }, s)).toMatchObject({ kind: 'error', code: 'agent_not_found' });
      });
    });

    describe('presence', () => {
      it('present / absent / server_not_running', async (ctx) => {
        expect(await h.port.agentPresence('rev', s)).toBe('absent');
        expect(await h.port.agentPresence('rev', { session: h.names.stoppedSession })).toBe('server_not_running');
        await seedAgent(ctx, { name: 'rev', kind: 'claude' });
        expect(await h.port.agentPresence('rev', s)).toBe('present');
        expect(await h.port.agentPresence('rev', { session: h.names.otherSession })).toBe('absent');
      });

      it('an agent that exited is absent', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude' });
        await edit(ctx, (e) => e.exitAgent('rev', s));
        expect(await h.port.agentPresence('rev', s)).toBe('absent');
      });

      it.for([
        ['a herdr error', { code: 'internal_error', message: 'boom' }],
        ['a transport fault', 'transport'],
      ] as const)('%s while listing is unknown, never absent', async ([, fault], ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude' });
        await edit(ctx, (e) => e.failNext('agent list', fault, s));
        expect(await h.port.agentPresence('rev', s)).toBe('unknown');
        expect(await h.port.agentPresence('rev', s)).toBe('present');
      });

      it('a list that hangs past the deadline is unknown', async (ctx) => {
        await edit(ctx, (e) => e.failNext('agent list', 'hang', s));
        expect(await h.port.agentPresence('rev', { ...s, deadlineMs: 300 })).toBe('unknown');
      });
    });

    describe('faults are values', () => {
      it('an injected herdr error comes back with its code and message', async (ctx) => {
        await edit(ctx, (e) => e.failNext('workspace create', { code: 'workspace_create_failed', message: 'no room' }, s));
        expect(await h.port.workspaceCreate({ cwd: h.cwd }, s)).toEqual({ kind: 'error', code: 'workspace_create_failed', message: 'no room', exitCode: 1 });
      });

      it('garbled output is a transport error', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude' });
        await edit(ctx, (e) => e.failNext('agent get', 'transport', s));
        const r = await h.port.agentGet('rev', s);
        expect(r.kind).toBe('transport_error');
      });

      it('a call that never answers ends at the deadline as a transport error', async (ctx) => {
        await seedAgent(ctx, { name: 'rev', kind: 'claude' });
        await edit(ctx, (e) => e.failNext('agent get', 'hang', s));
        expect(await h.port.agentGet('rev', { ...s, deadlineMs: 300 })).toMatchObject({ kind: 'transport_error', exitCode: null });
      });
    });
  });
}

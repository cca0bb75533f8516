import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StopResult } from '../../../src/lifecycle/stop-result.js';
import { rowByName } from '../../../src/registry/row-lookup.js';
import type { SessionRow } from '../../../src/registry/session-row.js';
import { makeRow, UA } from '../../helpers/registry-fixtures.js';
import { type LifecycleKit, lifecycleKit } from '../../helpers/lifecycle-kit.js';

const H1 = '0a000001-0000-4000-8000-0000000000a1';

function kind<K extends StopResult['kind']>(r: StopResult, k: K): Extract<StopResult, { kind: K }> {
  if (r.kind !== k) throw new Error(`expected ${k}, got ${JSON.stringify(r, null, 1)}`);
  return r as Extract<StopResult, { kind: K }>;
}

describe('SessionLifecycle.stop', () => {
  let k: LifecycleKit;
  // A running claude session: its agent in herdr (pid 4242 in the process table) and its row.
  async function running(name = 'reviewer-claude-01', agent = 'claude', ownId: string | null = UA, over: Partial<SessionRow> = {}): Promise<{ pane: string }> {
    const seeded = k.herdr.addAgent({ name, kind: agent, cwd: k.ws, pid: 4242, argv: ownId === null ? [agent] : [agent, '--session-id', ownId] });
    k.proc.add({ pid: 4242, argv: ownId === null ? [agent] : [agent, '--session-id', ownId] });
    await k.registry.update((d) => void d.herdr_sessions.push({ ...makeRow(name, agent, k.ws, { ownId, epoch: Math.floor(k.clock.now() / 1000) - 60 }), herdr_pane_id: seeded.paneId, ...over }));
    return { pane: seeded.paneId };
  }
  beforeEach(async () => {
    k = await lifecycleKit();
  });
  afterEach(async () => {
    await k.dispose();
  });

  it('asks the agent to exit, waits until herdr no longer has it, closes the pane and marks the row stopped (id kept)', async () => {
    const { pane } = await running();
    const r = kind(await k.life().stop('reviewer-claude-01'), 'stopped');
    expect(r).toMatchObject({ id: UA, exit: { how: 'exited', pane, paneClosed: true, captured: null }, row: { status: 'stopped', claude_session_id_own: UA } });
    const argvs = k.herdr.calls.map((c) => c.argv.slice(2).join(' '));
    expect(argvs).toEqual(['agent get reviewer-claude-01', `pane send-text ${pane} /exit`, `pane send-keys ${pane} enter`, 'agent get reviewer-claude-01', `pane close ${pane}`]);
    expect(rowByName(await k.registry.snapshot(), 'reviewer-claude-01')?.status).toBe('stopped');
  });

  it('an agent that ignores /exit is waited for (bounded by the clock), then its pane is closed', async () => {
    await running();
    k.herdr.stubborn.add('reviewer-claude-01');
    const t0 = k.clock.monotonic();
    const r = kind(await k.life({ timeouts: { exitMs: 2_000, pollMs: 500 } }).stop('reviewer-claude-01'), 'stopped');
    expect(r.exit.how).toBe('forced');
    expect(k.clock.monotonic() - t0).toBeGreaterThanOrEqual(2_000);
    expect(k.clock.monotonic() - t0).toBeLessThan(3_000);
    expect(k.ops().at(-1)).toBe('paneClose');
    expect(k.herdr.state.sessions['default']?.workspaces).toEqual([]);
  });

  it('with purge and yes: the conversation is purged and the row removed', async () => {
    await running();
    const transcript = k.claudeTranscript(UA);
    const r = kind(await k.life().stop('reviewer-claude-01', { purge: true, yes: true }), 'purged-and-removed');
    expect(r.purge).toMatchObject({ kind: 'purged', agent: 'claude' });
    expect(r.purge?.kind === 'purged' && r.purge.purged).toContainEqual({ kind: 'file', path: transcript });
    expect(existsSync(transcript)).toBe(false);
    expect((await k.registry.snapshot()).herdr_sessions).toEqual([]);
  });

  it('a purge without yes touches nothing', async () => {
    await running();
    const r = kind(await k.life().stop('reviewer-claude-01', { purge: true }), 'needs-yes');
    expect(r.message).toContain('Re-run with --yes');
    expect(k.herdr.calls).toEqual([]);
    expect(rowByName(await k.registry.snapshot(), 'reviewer-claude-01')?.status).toBe('running');
  });

  it('a refused purge keeps the row stopped with its id ("records preserved", holder and hints) and removes nothing', async () => {
    await running();
    const transcript = k.claudeTranscript(UA);
    k.proc.add({ pid: 4343, argv: ['sleep', '300', UA] });
    const r = kind(await k.life().stop('reviewer-claude-01', { purge: true, yes: true }), 'records-preserved');
    expect(r.holders).toEqual([{ pid: 4343, command: `sleep 300 ${UA}` }]);
    expect(r.hints.some((h) => h.includes('sessions'))).toBe(true);
    expect(r.message).toContain('records preserved');
    expect(r.message).toContain('holder pid 4343: sleep 300');
    expect(existsSync(transcript)).toBe(true);
    expect(rowByName(await k.registry.snapshot(), 'reviewer-claude-01')).toMatchObject({ status: 'stopped', claude_session_id_own: UA });
    expect(k.proc.get(4343)).toBeDefined();
  });

  it('a purge run from the conversation\'s own session (its variable in the caller\'s environment) is refused', async () => {
    const own = await lifecycleKit({ CLAUDE_CODE_SESSION_ID: UA });
    try {
      k = own;
      await running();
      const transcript = k.claudeTranscript(UA);
      kind(await k.life().stop('reviewer-claude-01', { purge: true, yes: true }), 'records-preserved');
      expect(existsSync(transcript)).toBe(true);
    } finally {
      await own.dispose();
    }
  });

  it('a post-discovered row that records no id gets its live id captured and pinned first, then purged', async () => {
    await running('reviewer-hermes-01', 'hermes', null);
    k.hermesSession(H1, k.clock.now() / 1000 - 30);
    const r = kind(await k.life().stop('reviewer-hermes-01', { purge: true, yes: true }), 'purged-and-removed');
    expect(r).toMatchObject({ id: H1, exit: { captured: H1 }, purge: { kind: 'purged', agent: 'hermes' } });
    const agentGets = k.herdr.calls.filter((c) => c.op === 'agentGet');
    expect(k.herdr.calls.indexOf(agentGets[0] as never)).toBeLessThan(k.ops().indexOf('paneSendText'));
  });

  it('a row with no id and nothing to capture is removed with nothing to purge', async () => {
    await running('reviewer-hermes-01', 'hermes', null);
    const r = kind(await k.life().stop('reviewer-hermes-01', { purge: true, yes: true }), 'purged-and-removed');
    expect(r).toMatchObject({ id: null, purge: null, exit: { captured: null } });
  });

  it('an agent herdr no longer has: nothing to ask, its leftover shell pane closed, the row stopped', async () => {
    const { pane } = await running();
    k.herdr.exitAgent('reviewer-claude-01');
    const r = kind(await k.life().stop('reviewer-claude-01'), 'stopped');
    expect(r.exit).toEqual({ how: 'already-gone', pane, paneClosed: true, captured: null });
    expect(k.ops()).not.toContain('paneSendText');
  });

  it('a recorded pane that hosts another agent now is never closed', async () => {
    await k.registry.update((d) => void d.herdr_sessions.push({ ...makeRow('gone-claude', 'claude', k.ws, { ownId: UA }), herdr_pane_id: 'w1:p1' }));
    k.herdr.addAgent({ name: 'someone-else', kind: 'codex', cwd: k.ws });
    const r = kind(await k.life().stop('gone-claude'), 'stopped');
    expect(r.exit).toMatchObject({ how: 'already-gone', paneClosed: false });
    expect(k.ops()).not.toContain('paneClose');
  });

  it('a recorded id that is no id of the agent is never purged; the row is kept', async () => {
    await running('reviewer-claude-01', 'claude', null, { claude_session_id_own: '../../etc' });
    const r = kind(await k.life().stop('reviewer-claude-01', { purge: true, yes: true }), 'failed');
    expect(r.step).toBe('purge');
    expect(r.error.message).toContain('check it, then fix or remove it by hand');
    expect(rowByName(await k.registry.snapshot(), 'reviewer-claude-01')?.status).toBe('stopped');
  });

  it('hostile row fields never reach herdr: a bad server refuses, a bad recorded pane is ignored', async () => {
    await k.registry.update((d) => void d.herdr_sessions.push({ ...makeRow('bad-server', 'claude', k.ws, { ownId: UA, server: '--session' }) }));
    const r = kind(await k.life().stop('bad-server'), 'failed');
    expect(r.step).toBe('validate');
    expect(k.herdr.calls).toEqual([]);
    await k.registry.update((d) => void d.herdr_sessions.push({ ...makeRow('bad-pane', 'claude', k.ws, { ownId: UA }), herdr_pane_id: 'w1:p1 ; rm -rf /' }));
    expect(kind(await k.life().stop('bad-pane'), 'stopped').exit).toMatchObject({ how: 'already-gone', pane: null });
    expect(k.herdr.calls.map((c) => c.op)).toEqual(['agentGet']);
  });

  it('an unknown row is not-found; a herdr that cannot be asked fails the stop and leaves the row running', async () => {
    expect(await k.life().stop('nobody')).toEqual({ kind: 'not-found', name: 'nobody' });
    await running();
    k.herdr.failNext('agentGet', 'transport');
    const r = kind(await k.life().stop('reviewer-claude-01'), 'failed');
    expect(r.step).toBe('stop');
    expect(rowByName(await k.registry.snapshot(), 'reviewer-claude-01')?.status).toBe('running');
  });
});

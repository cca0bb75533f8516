import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdOrderGateResult } from '../../../src/gate/id-order-gate.js';
import { parseIdOrderMarker } from '../../../src/gate/id-order-marker.js';
import { makeRow } from '../../helpers/registry-fixtures.js';
import { type GateKit, gateKit, SELF_PID, SELF_START_MS } from '../../helpers/lifecycle-gate-kit.js';

function refused(r: IdOrderGateResult): Extract<IdOrderGateResult, { kind: 'refused' }> {
  if (r.kind !== 'refused') throw new Error(`expected a refusal, got ${r.kind}`);
  return r;
}

function passed(r: IdOrderGateResult): Extract<IdOrderGateResult, { kind: 'passed' }> {
  if (r.kind !== 'passed') throw new Error(`expected a pass, got:\n${r.message}`);
  return r;
}

const req = (k: GateKit, session = 'reviewer-hermes-02') => ({ session, cwd: k.ws, herdrServer: 'default' });

describe('IdOrderGate', () => {
  let k: GateKit;
  beforeEach(async () => {
    k = await gateKit();
  });
  afterEach(async () => {
    await k.dispose();
  });

  it('passes an empty cwd at once and writes a marker with owner pid, herdr server, session name and attempt', async () => {
    const r = passed(await k.gate({ waitSeconds: 5 }).enter({ session: 'Reviewer Hermes #2', cwd: k.ws, herdrServer: 'srv-1' }));
    const m = parseIdOrderMarker(await readFile(r.ticket.file, 'utf8'));
    expect(m.ok && m.marker).toMatchObject({
      owner_pid: SELF_PID, owner_started_at_ms: SELF_START_MS, herdr_server: 'srv-1', session: 'Reviewer Hermes #2',
      attempt: Math.floor(k.clock.now() / 1000), cwd: k.ws, pane_id: null,
    });
    expect(m.ok && m.marker.herdr_name).toMatch(/^reviewer-hermes--2-[0-9a-f]{8}$/);
    await r.ticket.notePane('w1:p1');
    expect(JSON.parse(await readFile(r.ticket.file, 'utf8')).pane_id).toBe('w1:p1');
    await r.ticket.release();
    await r.ticket.release();
    expect(existsSync(r.ticket.file)).toBe(false);
    expect(k.herdr.calls).toEqual([]);
  });

  it('a live marker of another process blocks; with MAM_ID_ORDER_WAIT_S=0 the refusal comes at once and herdr is not asked', async () => {
    const env = await gateKit({ MAM_ID_ORDER_WAIT_S: '0' });
    try {
      env.live(777);
      const { file } = await env.writeMarker({ owner_pid: 777 });
      const r = refused(await env.gate().enter(req(env)));
      expect(r.wait).toEqual({ seconds: 0, source: 'env', raw: '0' });
      expect(r.blockers).toMatchObject([{ file, state: 'owner-alive', inProcess: false, closeCommand: null }]);
      expect(r.message).toContain('the creating process (pid 777) is still running');
      expect(existsSync(file)).toBe(true);
      expect(env.herdr.calls).toEqual([]);
      expect(await readdir(env.markerDir)).not.toContain(expect.stringMatching(/^500-/));
    } finally {
      await env.dispose();
    }
  });

  it('same session: a live marker of another process for the waiter\'s own session name is kept and blocks (never taken over)', async () => {
    k.live(777);
    const { file } = await k.writeMarker({ owner_pid: 777, session: 'reviewer-hermes-02' });
    const r = refused(await k.gate({ waitSeconds: 1 }).enter(req(k, 'reviewer-hermes-02')));
    expect(r.blockers.map((b) => b.state)).toEqual(['owner-alive']);
    expect(existsSync(file)).toBe(true);
  });

  it('the waiter\'s own pid\'s leftover markers go; a marker of a reused pid (other start) is not its own', async () => {
    const own = await k.writeMarker({ owner_pid: SELF_PID, owner_started_at_ms: SELF_START_MS });
    const r = passed(await k.gate({ waitSeconds: 1 }).enter(req(k)));
    expect(r.pruned).toMatchObject([{ file: own.file, reason: 'own-leftover' }]);
    expect(existsSync(own.file)).toBe(false);
    await r.ticket.release();

    // Same pid, another start: a dead process of the past whose session herdr still lists.
    const reused = await k.writeMarker({ owner_pid: SELF_PID, owner_started_at_ms: SELF_START_MS - 3_600_000 });
    k.herdr.addAgent({ name: 'reviewer-agy-01', kind: 'agy', cwd: k.ws });
    const r2 = refused(await k.gate({ waitSeconds: 1 }).enter(req(k)));
    expect(r2.blockers).toMatchObject([{ file: reused.file, state: 'orphan-alive' }]);
  });

  it('orphan: a dead owner whose row is not registered and whose session herdr lists is kept; the refusal prints the close command', async () => {
    k.herdr.addAgent({ name: 'reviewer-agy-01', kind: 'agy', cwd: k.ws });
    const { file } = await k.writeMarker({ owner_pid: 778, pane_id: 'w1:p1' });
    const start = k.clock.monotonic();
    const r = refused(await k.gate({ waitSeconds: 2 }).enter(req(k)));
    expect(k.clock.monotonic() - start).toBeLessThanOrEqual(2_000);
    expect(r.blockers).toMatchObject([{ file, state: 'orphan-alive', lastDefinite: 'present', closeCommand: 'herdr --session default pane close w1:p1' }]);
    expect(r.message).toContain('herdr says the session is still alive');
    expect(r.message).toContain('to close the orphaned session: herdr --session default pane close w1:p1');
    expect(existsSync(file)).toBe(true);
    const probes = k.herdr.calls.filter((c) => c.op === 'agentPresence');
    expect(probes.length).toBeGreaterThan(1);
    expect(probes[0]?.argv).toEqual(['--session', 'default', 'agent', 'list']);
  });

  it('registered: a dead owner\'s marker goes without asking herdr once its row is running with an epoch at or after the attempt', async () => {
    const { file, marker } = await k.writeMarker({ owner_pid: 778 });
    k.herdr.addAgent({ name: 'reviewer-agy-01', kind: 'agy', cwd: k.ws });
    await k.registry.update((d) => {
      d.herdr_sessions.push(makeRow('reviewer-agy-01', 'agy', k.ws, { epoch: marker.attempt - 1 }));
    });
    // An older instance of the row does not count: herdr decides, and it lists the session.
    refused(await k.gate({ waitSeconds: 0.5 }).enter(req(k)));
    await k.registry.update((d) => {
      const row = d.herdr_sessions[0];
      if (row !== undefined) row.herdr_session_epoch = marker.attempt;
    });
    const before = k.herdr.calls.length;
    const r = passed(await k.gate({ waitSeconds: 5 }).enter(req(k)));
    expect(r.pruned).toMatchObject([{ file, reason: 'registered' }]);
    expect(k.herdr.calls.length).toBe(before);
    await r.ticket.release();
  });

  it('gone: a dead owner\'s marker goes when a parsed agent list does not name the session', async () => {
    k.herdr.addAgent({ name: 'someone-else', kind: 'codex', cwd: k.ws });
    const { file } = await k.writeMarker({ owner_pid: 778 });
    const r = passed(await k.gate({ waitSeconds: 5 }).enter(req(k)));
    expect(r.pruned).toMatchObject([{ file, reason: 'gone' }]);
    expect(existsSync(file)).toBe(false);
    await r.ticket.release();
  });

  it('an owner that is a zombie (no argv: nobody reaped it) is no create running any more', async () => {
    k.proc.add({ pid: 779, argv: [], comm: 'node' });
    const { file } = await k.writeMarker({ owner_pid: 779 });
    const r = passed(await k.gate({ waitSeconds: 5 }).enter(req(k)));
    expect(r.pruned).toMatchObject([{ file, reason: 'gone' }]);
    await r.ticket.release();
  });

  it('an agent list on another server is asked on the marker\'s own server', async () => {
    k.herdr.startSession('srv-2');
    k.herdr.addAgent({ name: 'reviewer-agy-01', kind: 'agy', cwd: k.ws, session: 'srv-2' });
    await k.writeMarker({ owner_pid: 778, herdr_server: 'srv-2' });
    refused(await k.gate({ waitSeconds: 0.3 }).enter(req(k)));
    expect(k.herdr.calls.find((c) => c.op === 'agentPresence')?.session).toBe('srv-2');
  });

  it.each([
    ['a failing list', (x: GateKit) => x.herdr.failNext('agentPresence', 'transport', { times: 1000 }), 'herdr did not answer'],
    ['herdr\'s server_not_running (seed 003, later than herdr.md)', (x: GateKit) => x.herdr.stopSession('default'), 'herdr answered server_not_running'],
    ['an error answer', (x: GateKit) => x.herdr.failNext('agentPresence', { code: 'internal_error', message: 'boom' }, { times: 1000 }), 'herdr did not answer'],
  ])('unknown probe (%s): the orphaned marker is kept and the gate refuses', async (_what, fault, text) => {
    const { file } = await k.writeMarker({ owner_pid: 778 });
    fault(k);
    const r = refused(await k.gate({ waitSeconds: 1 }).enter(req(k)));
    expect(r.blockers).toMatchObject([{ file, state: 'orphan-unknown', lastDefinite: null }]);
    expect(r.message).toContain(text);
    expect(r.message).toContain('so the marker is kept');
    expect(existsSync(file)).toBe(true);
  });

  it('MAM_ID_ORDER_WAIT_S=0 asks herdr nothing about an orphan, keeps it, and says so', async () => {
    const z = await gateKit({ MAM_ID_ORDER_WAIT_S: '0' });
    try {
      const { file } = await z.writeMarker({ owner_pid: 778 });
      const r = refused(await z.gate().enter(req(z)));
      expect(r.blockers).toMatchObject([{ file, state: 'orphan-unknown', why: 'no-time' }]);
      expect(r.message).toContain('MAM_ID_ORDER_WAIT_S=0 asks herdr nothing');
      expect(z.herdr.calls).toEqual([]);
      expect(existsSync(file)).toBe(true);
    } finally {
      await z.dispose();
    }
  });

  it('a hanging probe is bounded by the wait itself, and the refusal keeps the last definite answer of this wait', async () => {
    k.herdr.addAgent({ name: 'reviewer-agy-01', kind: 'agy', cwd: k.ws });
    await k.writeMarker({ owner_pid: 778 });
    // The first look gets a definite "present", every later one hangs.
    let looks = 0;
    const presence = k.herdr.agentPresence.bind(k.herdr);
    k.herdr.agentPresence = async (name, opts) => {
      looks += 1;
      if (looks === 1) return presence(name, opts);
      await k.clock.sleep(1_000_000);
      return 'unknown';
    };
    const start = k.clock.monotonic();
    const r = refused(await k.gate({ waitSeconds: 3 }).enter(req(k)));
    expect(k.clock.monotonic() - start).toBeLessThanOrEqual(3_000);
    expect(looks).toBe(2);
    expect(r.blockers).toMatchObject([{ state: 'orphan-unknown', why: 'unknown', lastDefinite: 'present' }]);
    expect(r.message).toContain('herdr last said the session is alive');
  });

  it('an unreadable or hostile marker blocks ("check it, then remove it by hand") and is never used in a command', async () => {
    const { file } = await k.writeMarker({ owner_pid: 778 });
    const text = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...text, herdr_server: 'x; rm -rf ~' }));
    await writeFile(join(k.markerDir, '.123-tmp.json.abc.tmp'), 'garbage');
    const huge = join(k.markerDir, `9-${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}.json`);
    await writeFile(huge, ' '.repeat(1 << 20));
    const r = refused(await k.gate({ waitSeconds: 0 }).enter(req(k)));
    expect(r.blockers).toMatchObject([{ file, state: 'unreadable', closeCommand: null }, { file: huge, state: 'unreadable' }]);
    expect(r.message).toContain('check it, then remove it by hand');
    expect(r.message).not.toContain('rm -rf');
    expect(k.herdr.calls).toEqual([]);
  });

  it('two attempts of one process pass one at a time', async () => {
    const gate = k.gate({ waitSeconds: 60 });
    const first = passed(await gate.enter(req(k, 'a-agy')));
    let secondIn = false;
    const second = gate.enter(req(k, 'b-agy')).then((r) => {
      secondIn = true;
      return r;
    });
    await k.clock.sleep(2_000);
    expect(secondIn).toBe(false);
    await first.ticket.release();
    const r = passed(await second);
    expect(r.pruned).toEqual([]);
    await r.ticket.release();
  });

  it('an invalid MAM_ID_ORDER_WAIT_S falls back to the default and the refusal says so', async () => {
    const bad = await gateKit({ MAM_ID_ORDER_WAIT_S: 'soon' });
    try {
      expect(bad.gate().wait()).toEqual({ seconds: 60, source: 'invalid', raw: 'soon' });
      bad.live(777);
      await bad.writeMarker({ owner_pid: 777 });
      const r = refused(await bad.gate({ pollMs: 5_000 }).enter(req(bad)));
      expect(r.message).toContain('MAM_ID_ORDER_WAIT_S="soon" is not a number of seconds');
    } finally {
      await bad.dispose();
    }
  });
});

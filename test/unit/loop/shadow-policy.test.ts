import cp from 'node:child_process';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POLICY_DECISIONS, ShadowPolicy, type PolicyScenario } from '../../../src/loop/index.js';
import { cloneScenario, loadManifest, loadScenarios } from '../../helpers/jobs-scenarios.js';

const policy = new ShadowPolicy();
const scenarios = loadScenarios();
const approved = (): PolicyScenario => cloneScenario(scenarios.get('finalized_candidate') as PolicyScenario);

describe('ShadowPolicy.decide against the contract vectors', () => {
  it('the manifest names exactly the vectors present, the phase-0 seven and the five P2A-04 added', () => {
    const manifest = loadManifest();
    expect([...scenarios.keys()].sort()).toEqual([...manifest.scenarios].sort());
    expect(manifest.scenarios).toHaveLength(12);
    expect(manifest.decisions).toEqual([...POLICY_DECISIONS]);
    for (const s of scenarios.values()) expect(POLICY_DECISIONS).toContain(s.expected_policy.decision);
  });

  it.each([...scenarios.keys()])('%s: the expected decision, with a reason containing reason_contains', (id) => {
    const s = scenarios.get(id);
    if (s === undefined) throw new Error(id);
    const got = policy.decide(s);
    expect(got.decision, got.reason).toBe(s.expected_policy.decision);
    expect(got.reason.length).toBeGreaterThan(0);
    expect(got.reason.toLowerCase()).toContain(s.expected_policy.reason_contains.toLowerCase());
  });

  it('a stable mtime alone never authorises completion: manifest and hash both decide', () => {
    const s = approved();
    s.filesystem = { ...s.filesystem, manifest_committed: false, report_mtime_stable_ms: 600_000 };
    expect(policy.decide(s)).toMatchObject({ decision: 'hold', reason: expect.stringContaining('manifest') });
    s.filesystem = { ...s.filesystem, manifest_committed: true, hash_verified: false };
    expect(policy.decide(s)).toMatchObject({ decision: 'hold', reason: expect.stringContaining('hash') });
  });

  it('holds, naming the anchor, when the execution anchor is missing', () => {
    const s = approved();
    s.dispatch_context = { ...s.dispatch_context, execution_anchor_observed: false };
    const d = policy.decide(s);
    expect(d.decision).toBe('hold');
    expect(d.reason).toContain('anchor');
  });

  it('the order matters: transport doubt before blocked, blocked before attribution, attribution before quiescence', () => {
    const blockedAndDisconnected = cloneScenario(scenarios.get('blocked_permission') as PolicyScenario);
    blockedAndDisconnected.observation = { ...blockedAndDisconnected.observation, transport: 'error' };
    expect(policy.decide(blockedAndDisconnected).decision).toBe('reobserve');
    const blockedAndMismatched = cloneScenario(scenarios.get('blocked_permission') as PolicyScenario);
    blockedAndMismatched.observation = { ...blockedAndMismatched.observation, attempt_id: 9 };
    expect(policy.decide(blockedAndMismatched).decision).toBe('blocked');
    const working = cloneScenario(scenarios.get('race_double_dispatch') as PolicyScenario);
    working.observation = { ...working.observation, agent: { ...working.observation?.agent, agent_status: 'working' } };
    expect(policy.decide(working).decision).toBe('reject');
  });

  it('a stale snapshot is re-observed; one exactly at the limit is not stale', () => {
    const s = approved();
    s.observation = { ...s.observation, snapshot_age_ms: 5_001 };
    expect(policy.decide(s)).toMatchObject({ decision: 'reobserve', reason: expect.stringContaining('stale') });
    s.observation = { ...s.observation, snapshot_age_ms: 5_000 };
    expect(policy.decide(s).decision).toBe('candidate_approved');
  });

  it('the agent pane must belong to the dispatched generation; the job record must agree with the dispatch and be running', () => {
    const s = approved();
    s.observation = { ...s.observation, agent: { ...s.observation?.agent, pane_id: 'w2X:p10' } };
    expect(policy.decide(s)).toMatchObject({ decision: 'reject', reason: expect.stringContaining('generation') });
    const t = approved();
    t.job = { ...t.job, attempt_id: 2 };
    expect(policy.decide(t)).toMatchObject({ decision: 'reject', reason: expect.stringContaining('attempt') });
    const u = approved();
    u.job = { ...u.job, status: 'completed' };
    expect(policy.decide(u).decision).toBe('hold');
  });

  it.each([
    ['observation', 'reobserve'],
    ['limits', 'reobserve'],
    ['dispatch_context', 'hold'],
    ['job', 'hold'],
    ['quiescence', 'hold'],
    ['filesystem', 'hold'],
  ] as const)('a missing %s block is absent evidence (%s), never a pass', (block, decision) => {
    const s = approved();
    delete s[block];
    expect(policy.decide(s).decision).toBe(decision);
  });

  it('anything that is not a scenario is decided, not thrown on', () => {
    for (const v of [null, undefined, 42, 'x', [], {}, { observation: null }, { observation: { transport: 'ok', agent: [] } }]) {
      expect(policy.decide(v as PolicyScenario).decision).toBe('reobserve');
    }
  });
});

describe('ShadowPolicy.decide is pure', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    syncBuiltinESMExports();
  });

  it('decides every vector with fs, process, socket, clock and randomness replaced by throwing stubs', () => {
    const inputs = [...scenarios.values()].flatMap((s) => [s, { ...s, observation: { ...s.observation, transport: 'error' } }]);
    const boom = (what: string) => () => {
      throw new Error(`impure: ${what}`);
    };
    const stubAll = (obj: object, label: string): void => {
      for (const key of Object.keys(obj)) {
        const desc = Object.getOwnPropertyDescriptor(obj, key);
        if (desc === undefined || typeof desc.value !== 'function' || !desc.writable) continue;
        vi.spyOn(obj as Record<string, () => unknown>, key).mockImplementation(boom(`${label}.${key}`));
      }
    };
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(boom('net.Socket.connect'));
    stubAll(fs, 'fs');
    stubAll(fs.promises, 'fs.promises');
    stubAll(cp, 'child_process');
    stubAll(net, 'net');
    vi.spyOn(Date, 'now').mockImplementation(boom('Date.now'));
    vi.spyOn(performance, 'now').mockImplementation(boom('performance.now'));
    vi.spyOn(Math, 'random').mockImplementation(boom('Math.random'));
    vi.spyOn(process, 'hrtime').mockImplementation(boom('process.hrtime') as never);
    vi.spyOn(process, 'cwd').mockImplementation(boom('process.cwd'));
    syncBuiltinESMExports();
    // Synchronous from here to the restore: nothing else in this process runs while the stubs are up.
    const decided = inputs.map((s) => policy.decide(s));
    const controls = [() => fs.readFileSync('/etc/hostname'), () => fs.promises.readFile('/x'), () => cp.execFileSync('true'), () => net.connect(1), () => Date.now(), () => Math.random()];
    const caught = controls.map((f) => {
      try {
        f();
        return 'ran';
      } catch (err) {
        return String(err).includes('impure') ? 'stubbed' : 'other';
      }
    });
    vi.restoreAllMocks();
    syncBuiltinESMExports();
    expect(caught).toEqual(Array(controls.length).fill('stubbed'));
    expect(decided.map((d) => d.decision)).toEqual(inputs.map((s, i) => (i % 2 === 1 ? 'reobserve' : s.expected_policy.decision)));
  });
});

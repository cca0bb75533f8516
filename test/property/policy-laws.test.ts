import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { POLICY_DECISIONS, ShadowPolicy, type PolicyScenario } from '../../src/loop/index.js';
import { cloneScenario, loadScenarios } from '../helpers/jobs-scenarios.js';

const policy = new ShadowPolicy();
const vectors = [...loadScenarios().values()];
const base = vectors.find((v) => v.scenario_id === 'finalized_candidate') as PolicyScenario;

// Fields decide() deliberately does not rest on: labels, the vector's own answer, herdr's UI flags, and the mtime
// debounce (a candidate filter, never an authority). Every other leaf and every block is evidence.
const NOT_EVIDENCE = new Set([
  'scenario_id', 'description', 'expected_policy', 'expected_policy.decision', 'expected_policy.reason_contains',
  'observation.agent.interactive_ready', 'observation.agent.state_change_seq', 'filesystem.report_mtime_stable_ms',
]);

function paths(v: unknown, prefix = ''): string[] {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return [];
  return Object.entries(v).flatMap(([k, child]) => {
    const p = prefix === '' ? k : `${prefix}.${k}`;
    return [p, ...paths(child, p)];
  });
}

function without(s: PolicyScenario, path: string): PolicyScenario {
  const copy = cloneScenario(s) as Record<string, unknown>;
  const keys = path.split('.');
  let node: unknown = copy;
  for (const k of keys.slice(0, -1)) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[k] : undefined;
  if (typeof node === 'object' && node !== null) delete (node as Record<string, unknown>)[keys.at(-1) as string];
  return copy as PolicyScenario;
}

const EVIDENCE = paths(base).filter((p) => !NOT_EVIDENCE.has(p));

// Approved scenarios: the finalized candidate with its identifiers, timings and quiescent status varied consistently.
const approvedScenario = fc
  .record({
    jobId: fc.stringMatching(/^job-[a-z0-9]{1,12}$/),
    attempt: fc.integer({ min: 1, max: 50 }),
    uuid: fc.uuid(),
    pane: fc.stringMatching(/^w[0-9A-Z]{1,3}:p[0-9]{1,3}$/),
    pid: fc.integer({ min: 1, max: 99999 }),
    status: fc.constantFrom('idle', 'done'),
    limit: fc.integer({ min: 0, max: 60_000 }),
    required: fc.integer({ min: 0, max: 60_000 }),
    ageFrac: fc.double({ min: 0, max: 1, noNaN: true }),
    extraIdle: fc.integer({ min: 0, max: 60_000 }),
  })
  .map((r): PolicyScenario => {
    const s = cloneScenario(base);
    const gen = `${r.pane}:${r.pid}:2026-09-06T00:00:00Z`;
    const ids = { job_id: r.jobId, attempt_id: r.attempt, agent_session_uuid: r.uuid, pane_process_generation: gen };
    s.job = { ...s.job, job_id: r.jobId, attempt_id: r.attempt };
    s.dispatch_context = { ...s.dispatch_context, ...ids };
    s.observation = { ...s.observation, ...ids, snapshot_age_ms: Math.floor(r.limit * r.ageFrac), agent: { ...s.observation?.agent, pane_id: r.pane, agent_status: r.status } };
    s.limits = { max_snapshot_age_ms: r.limit };
    s.quiescence = { idle_for_ms: r.required + r.extraIdle, required_idle_ms: r.required };
    return s;
  });

// Any scenario: a vector with blocks and fields mutated, removed, or replaced by junk.
const junk = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -5, max: 100_000 }), fc.string({ maxLength: 6 }), fc.constantFrom('ok', 'idle', 'done', 'blocked', 'working', 'unknown'));
const anyScenario = fc
  .record({ v: fc.constantFrom(...vectors), edits: fc.array(fc.tuple(fc.constantFrom(...paths(base)), fc.option(junk, { nil: undefined })), { maxLength: 6 }) })
  .map(({ v, edits }) => {
    let s = cloneScenario(v) as PolicyScenario;
    for (const [path, value] of edits) {
      if (value === undefined) s = without(s, path);
      else {
        const keys = path.split('.');
        let node = s as Record<string, unknown>;
        for (const k of keys.slice(0, -1)) {
          if (typeof node[k] !== 'object' || node[k] === null) node[k] = {};
          node = node[k] as Record<string, unknown>;
        }
        node[keys.at(-1) as string] = value;
      }
    }
    return s;
  });

describe('ShadowPolicy laws', () => {
  it('the generator of approved scenarios really produces approved ones (so the removal law is not vacuous)', () => {
    fc.assert(
      fc.property(approvedScenario, (s) => {
        expect(policy.decide(s).decision).toBe('candidate_approved');
      }),
      { numRuns: 200 },
    );
    expect(EVIDENCE.length).toBeGreaterThan(20);
  });

  it('the same input always gives the same decision, and decide never changes its input', () => {
    fc.assert(
      fc.property(fc.oneof(anyScenario, approvedScenario), (s) => {
        const before = cloneScenario(s);
        const first = policy.decide(s);
        expect(policy.decide(cloneScenario(s))).toEqual(first);
        expect(new ShadowPolicy().decide(s)).toEqual(first);
        expect(s).toEqual(before);
      }),
      { numRuns: 400 },
    );
  });

  it('removing any single piece of evidence from the approved vector never yields candidate_approved', () => {
    for (const path of EVIDENCE) expect(policy.decide(without(base, path)).decision, path).not.toBe('candidate_approved');
  });

  it('removing any set of evidence from any approved scenario never yields candidate_approved', () => {
    fc.assert(
      fc.property(approvedScenario, fc.uniqueArray(fc.constantFrom(...EVIDENCE), { minLength: 1, maxLength: 5 }), (s, removed) => {
        const stripped = removed.reduce(without, s);
        expect(policy.decide(stripped).decision).not.toBe('candidate_approved');
      }),
      { numRuns: 400 },
    );
  });

  it('transport doubt always wins: whatever else holds, a transport that is not ok is reobserve', () => {
    const notOk = fc.oneof(fc.constantFrom('disconnected', 'error', undefined, null, 'OK', ''), fc.string().filter((t) => t !== 'ok'));
    fc.assert(
      fc.property(fc.oneof(anyScenario, approvedScenario), notOk, (s, transport) => {
        const t = cloneScenario(s);
        const observation = typeof t.observation === 'object' && t.observation !== null ? { ...t.observation } : {};
        if (transport === undefined) delete observation.transport;
        else observation.transport = transport as string;
        t.observation = observation;
        expect(policy.decide(t).decision).toBe('reobserve');
      }),
      { numRuns: 400 },
    );
  });

  it('decide is total: any JSON value gets one of the five decisions and a reason', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), anyScenario), (s) => {
        const d = policy.decide(s as PolicyScenario);
        expect(POLICY_DECISIONS).toContain(d.decision);
        expect(typeof d.reason === 'string' && d.reason.length > 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

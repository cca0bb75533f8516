// runAgentContract catches each law: a working adapter (codex, on the real fixture) passes every law; wrapped so that it
// breaks exactly one law, the report names that law failed (with why) and the others passed. Bad options throw.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import type { AgentAdapter } from '../../../src/agents/types.js';
import { isUuid } from '../../../src/ids/agent-id.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import type { Ports } from '../../../src/ports/index.js';
import { PurgeService } from '../../../src/purge/purge-service.js';
import { AGENT_CONTRACT_LAWS, type AgentContractLaw, type AgentContractStage, describeAgentContract, runAgentContract } from '../../../src/testing/index.js';
import { materializeStage } from '../../helpers/real-stage.js';

const A = '01a229e1-babe-7660-ab96-63d71c4bdf06';
const B = '01a229e4-5cbc-7f60-86ff-abaf22a4b8e4';

function codexStage(unknown: boolean): AgentContractStage {
  return {
    name: unknown ? 'codex, unknown state DB' : 'codex/03-two-sessions',
    ...(unknown ? { unknownLayout: true } : {}),
    async build(root) {
      const s = materializeStage('codex/03-two-sessions', root);
      const bin = join(root, 'empty-bin');
      mkdirSync(bin);
      if (unknown) {
        const db = new Database(join(s.home, '.codex', 'state_9.sqlite'));
        db.exec(`CREATE TABLE conversations (id TEXT PRIMARY KEY); INSERT INTO conversations VALUES ('${A}')`);
        db.close();
      }
      return { home: s.home, workspace: join(root, 'ws-codex'), env: { ...s.env, PATH: bin }, ids: [A], otherWorkspace: { workspace: join(root, 'ws-codex2'), ids: [B] }, ...(unknown ? { refusedIds: [A] } : {}) };
    },
  };
}

type Patch = (real: AgentAdapter, ports: Ports) => Partial<AgentAdapter>;

// The codex adapter with some methods replaced (the rest answered by the real one).
function broken(patch: Patch): (ports: Ports) => AgentAdapter {
  return (ports) => {
    const real = getAdapter('codex', { ports });
    const over = patch(real, ports) as Record<PropertyKey, unknown>;
    return new Proxy(real, {
      get(target, key) {
        if (key in over) return over[key];
        const v: unknown = Reflect.get(target, key, target);
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
  };
}

const CASES: Array<{ law: AgentContractLaw; also?: AgentContractLaw[]; unknown?: boolean; patch: Patch; says: RegExp }> = [
  {
    law: 'discover-verifies',
    // A conversation that never verifies cannot verify after a sibling's purge either.
    also: ['purge-removes-id'],
    patch: (real) => ({
      verifyArtifact: (id, ctx, mode) => (id === B ? Promise.resolve(false) : real.verifyArtifact(id, ctx, mode)),
      verifyMany: async (qs, ctx) => (await real.verifyMany?.(qs, ctx) ?? []).map((v, i) => v && qs[i]?.id !== B),
    }),
    says: /discover offered 01a229e4.* does not verify/,
  },
  { law: 'discover-offers-ids', patch: (real) => ({ discover: async (ctx) => (await real.discover(ctx)).slice(0, -1) }), says: /does not offer \["01a229e1/ },
  { law: 'verify-many-agrees', patch: (real) => ({ verifyMany: async (qs, ctx) => (await real.verifyMany?.(qs, ctx) ?? []).map(() => true) }), says: /verifyMany says true for .*verifyArtifact says false/ },
  {
    law: 'implausible-id-reads-nothing',
    patch: (real, ports) => ({ verifyArtifact: async (id, ctx, mode) => (isUuid(id) || typeof id !== 'string' ? real.verifyArtifact(id, ctx, mode) : (await ports.fs.lstat((ctx as { home: string }).home), false)) }),
    says: /id "\.\.\/x": reached \d+ path\(s\): lstat/,
  },
  {
    law: 'plan-changes-nothing',
    patch: (real, ports) => ({
      planPurge: async (id, ctx) => {
        const plan = await real.planPurge(id, ctx);
        const file = plan.artifacts.find((a) => a.kind === 'file');
        if (file?.kind === 'file') await ports.fs.unlink(file.path);
        return plan;
      },
    }),
    says: /planning changed the tree: - .*rollout-/,
  },
  // Each break keeps the argument checks (a bad argument still reaches the real method), so only its own law fails.
  { law: 'purge-removes-id', patch: (real) => ({ purgeArtifacts: async (id, ctx) => (await real.residualArtifacts(id, ctx), []) }), says: /01a229e1.* still verifies in .*ws-codex \(verify mode\) after its purge/ },
  { law: 'live-holder-refuses', patch: (real) => ({ inUseHolders: async (id, ctx) => (typeof id === 'string' ? [] : real.inUseHolders(id, ctx)), conversationInUse: async () => false }), says: /inUseHolders\(01a229e1.*\) does not name the live process 4242/ },
  {
    law: 'unknown-layout-refuses',
    unknown: true,
    patch: (real) => ({ planPurge: async (id, ctx) => ({ ...(await real.planPurge(id, ctx)), refused: [] }) }),
    says: /planPurge\(01a229e1.*\) refuses nothing on an unknown layout/,
  },
  {
    law: 'inspect-never-rejects',
    patch: (real) => ({
      inspect: async (ctx) => {
        const report = await real.inspect?.(ctx);
        if (report === undefined || report.presence === 'absent') throw new Error('no store here');
        return report;
      },
    }),
    says: /inspect rejected on an empty home \(Error: no store here\)/,
  },
  {
    law: 'bad-arguments-rejected',
    patch: (real) => ({ discover: (ctx) => ((ctx as { workspace?: unknown } | undefined)?.workspace === 'relative/workspace' ? Promise.resolve([]) : real.discover(ctx)) }),
    says: /discover with a relative workspace answered \[\] instead of throwing InvalidArgumentError/,
  },
];

describe('runAgentContract', () => {
  it('a working adapter passes every law on an ordinary and an unknown-layout stage', async () => {
    const report = await runAgentContract({ adapter: (ports) => getAdapter('codex', { ports }), stages: [codexStage(false), codexStage(true)], purgeService: (ports) => new PurgeService({ ports }) });
    expect(report.laws.filter((l) => !l.ok)).toEqual([]);
    expect(report).toMatchObject({ agent: 'codex', passed: true });
    const ordinary = report.laws.filter((l) => l.stage === 'codex/03-two-sessions').map((l) => l.law);
    expect(new Set(ordinary)).toEqual(new Set(AGENT_CONTRACT_LAWS.filter((l) => l !== 'unknown-layout-refuses')));
    const unknown = report.laws.filter((l) => l.stage === 'codex, unknown state DB').map((l) => l.law);
    expect(unknown).toContain('unknown-layout-refuses');
    expect(unknown).not.toContain('purge-removes-id');
  });

  it.each(CASES.map((c) => [c.law, c] as const))('catches an adapter that breaks %s', async (law, c) => {
    const stages = c.unknown === true ? [codexStage(false), codexStage(true)] : [codexStage(false)];
    const report = await runAgentContract({ adapter: broken(c.patch), stages });
    expect(report.passed).toBe(false);
    const failed = [...new Set(report.laws.filter((l) => !l.ok).map((l) => l.law))].sort();
    expect(failed).toEqual([law, ...(c.also ?? [])].sort());
    const verdict = report.laws.find((l) => l.law === law && !l.ok);
    expect(verdict?.message).toMatch(c.says);
  });

  it('a stage that cannot be built fails its laws, it does not reject', async () => {
    const stage: AgentContractStage = { name: 'broken build', build: () => Promise.reject(new Error('no fixture')) };
    const report = await runAgentContract({ adapter: (ports) => getAdapter('codex', { ports }), stages: [stage] });
    expect(report.passed).toBe(false);
    expect(report.laws.every((l) => !l.ok && /no fixture/.test(l.message ?? ''))).toBe(true);
  });

  it('bad options throw InvalidArgumentError', async () => {
    const adapter = (ports: Ports) => getAdapter('codex', { ports });
    const bad: unknown[] = [
      undefined,
      { stages: [codexStage(false)] },
      { adapter, stages: [] },
      { adapter, stages: [{ name: '', build: () => Promise.resolve() }] },
      { adapter, stages: [codexStage(false), codexStage(false)] },
      { adapter, stages: [{ name: 'x' }] },
      { adapter, stages: [codexStage(false)], purgeService: 1 },
      { adapter, stages: [codexStage(false)], implausibleIds: [1] },
    ];
    for (const options of bad) await expect(runAgentContract(options as never), JSON.stringify(options)).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(() => describeAgentContract({ adapter, stages: [codexStage(false)] }, {} as never)).toThrow(InvalidArgumentError);
  });

  it('describeAgentContract registers one test per law and stage with the runner given', () => {
    const names: string[] = [];
    let group = '';
    describeAgentContract(
      { adapter: (ports) => getAdapter('codex', { ports }), stages: [codexStage(false), codexStage(true)] },
      {
        describe: (name, body) => {
          group = name;
          body();
        },
        it: (name) => names.push(`${group} › ${name}`),
      },
    );
    expect(names).toHaveLength(2 * AGENT_CONTRACT_LAWS.length - 3);
    expect(names).toContain('codex/03-two-sessions › live-holder-refuses');
    expect(names).toContain('codex, unknown state DB › unknown-layout-refuses');
  });
});

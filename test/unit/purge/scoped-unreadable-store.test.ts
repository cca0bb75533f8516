// A scoped plan says `not-in-workspace` only when the workspace check could read the agent's stores: a verification
// that answered no while a store could not be read (the plan's own row look said so, or the agent's inspection does) is
// `refused`, naming that store; remains that record another workspace still answer `not-in-workspace`. The real case
// (a database another process holds locked) is test/integration/purge-busy-store.test.ts.
import { describe, expect, it, vi } from 'vitest';
import type { AgentAdapter, RemainsBelonging, StoreReport } from '../../../src/agents/types.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import type { LeftArtifact } from '../../../src/purge/artifact.js';
import { PurgePlanner } from '../../../src/purge/purge-planner.js';

const HOME = '/tmp';
const WS = '/tmp/ws';
const DB = '/tmp/agent/store.db';
const FILE = '/tmp/agent/conv.json';
const BUSY = `${DB}: unreadable (cannot read SQLite database ${DB} (leftover): it is busy, another process holds its lock (database is locked)): purges refuse`;

interface Case {
  remains: RemainsBelonging | null;
  report?: Partial<StoreReport>;
  refused?: LeftArtifact[];
}

function planner(c: Case): { planner: PurgePlanner<'agent'>; inspect: ReturnType<typeof vi.fn> } {
  const inspect = vi.fn(async (): Promise<StoreReport> => ({ agent: 'agent', presence: 'present', root: '/tmp/agent', layout: null, known: true, counts: {}, problems: [], ...c.report }));
  const adapter = {
    name: 'agent',
    inUseHolders: async () => [],
    inUseHints: () => [],
    hasArtifacts: async () => true,
    planPurge: async () => ({ artifacts: [{ kind: 'file', path: FILE }], refused: c.refused ?? [], mentions: [], notes: [] }),
    verifyArtifact: async () => false,
    remainsBelonging: async () => c.remains,
    inspect,
  } as unknown as AgentAdapter<string>;
  return { planner: new PurgePlanner<'agent'>(nodePorts().fs, () => adapter, { names: ['agent'], plausible: () => true }), inspect };
}

const scoped = { home: HOME, workspace: WS };

describe('a scoped plan whose workspace check could not read the store', () => {
  it.each([null, 'unrecorded'] as const)('an unreadable store in the inspection: refused, naming it (remains %s)', async (remains) => {
    const { planner: p } = planner({ remains, report: { readable: false, problems: [BUSY] } });
    const plan = await p.plan('agent', 'id-1', scoped);
    expect(plan.verdict).toBe('refused');
    expect(plan.reason).toContain(`cannot tell whether agent conversation id-1 is of workspace ${WS}`);
    expect(plan.reason).toContain(DB);
    expect(plan.reason).toContain('busy');
    expect(plan.refused).toEqual([expect.objectContaining({ path: '/tmp/agent', reason: `agent store unreadable: ${BUSY}` })]);
  });

  it("the plan's own row look said the database is unreadable: refused naming it, no inspection asked", async () => {
    const left: LeftArtifact = { kind: 'file', path: DB, reason: 'unreadable: cannot read SQLite database (leftover): it is busy' };
    const { planner: p, inspect } = planner({ remains: null, refused: [left] });
    const plan = await p.plan('agent', 'id-1', scoped);
    expect(plan).toMatchObject({ verdict: 'refused', refused: [left] });
    expect(plan.reason).toContain(DB);
    expect(inspect).not.toHaveBeenCalled();
  });

  it('every store read: not-in-workspace, as before', async () => {
    const { planner: p } = planner({ remains: null });
    expect(await p.plan('agent', 'id-1', scoped)).toMatchObject({ verdict: 'not-in-workspace', reason: `agent conversation id-1 is not one of workspace ${WS}` });
  });

  it('remains that record another workspace: not-in-workspace, whatever else cannot be read', async () => {
    const { planner: p, inspect } = planner({ remains: 'elsewhere', report: { readable: false, problems: [BUSY] } });
    expect(await p.plan('agent', 'id-1', scoped)).toMatchObject({ verdict: 'not-in-workspace' });
    expect(inspect).not.toHaveBeenCalled();
  });
});

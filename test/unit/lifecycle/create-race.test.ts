// Create-level reproductions for the id-order gate: two post-discovered creates racing in one cwd, and a create killed
// after starting its agent but before registering its row (seed 003, PR #69 review P1).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdOrderGate } from '../../../src/gate/id-order-gate.js';
import type { CreateResult } from '../../../src/lifecycle/create-result.js';
import { recordedId } from '../../../src/registry/row-agent.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { makeRow } from '../../helpers/registry-fixtures.js';
import { type LifecycleKit, lifecycleKit } from '../../helpers/lifecycle-kit.js';

const IDS = ['0a000001-0000-4000-8000-0000000000a1', '0a000002-0000-4000-8000-0000000000a2'];

function created(r: CreateResult): Extract<CreateResult, { kind: 'created' }> {
  if (r.kind !== 'created') throw new Error(`expected created, got ${JSON.stringify(r, null, 1)}`);
  return r;
}

describe('id-order gate, create level', () => {
  let k: LifecycleKit;
  afterEach(async () => {
    await k.dispose();
  });

  describe('two creates racing in one cwd', () => {
    beforeEach(async () => {
      k = await lifecycleKit({ MAM_ID_ORDER_WAIT_S: '600' });
    });

    it('start one at a time: the second agent starts only once the first has its id pinned, and each row gets its own conversation', async () => {
      const unpinnedAtStart: string[] = [];
      let next = 0;
      k.herdr.onStart = async (a) => {
        const rows = (await k.registry.snapshot()).herdr_sessions;
        unpinnedAtStart.push(...rows.filter((r) => r.status === 'running' && recordedId(r) === null).map((r) => r.name));
        // Each agent writes its conversation as it starts; both are newer than either session's epoch.
        k.hermesSession(IDS[next++] as string, k.clock.now() / 1000 + 1);
      };
      const life = k.life();
      const [a, b] = await Promise.all([
        life.create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' }),
        life.create({ name: 'reviewer-hermes-02', agent: 'hermes', role: 'reviewer' }),
      ]);
      const ids = [created(a).id, created(b).id];
      expect(unpinnedAtStart).toEqual([]);
      expect(ids.every((id) => id !== null)).toBe(true);
      expect(new Set(ids).size).toBe(2);
      expect([...ids].sort()).toEqual([...IDS].sort());
      expect(k.herdr.calls.filter((c) => c.op === 'agentStart')).toHaveLength(2);
    });
  });

  describe('a create killed after starting its agent, before registering its row', () => {
    let orphan: { release: () => Promise<void> };
    let pane: string;
    beforeEach(async () => {
      k = await lifecycleKit({ MAM_ID_ORDER_WAIT_S: '1' });
      // Process 901 passes the gate, makes its pane and starts its agent, then dies (it is not in our process table).
      const other = new FakeProcessTable([], { self: { pid: 901, argv: ['node', 'mam', 'create'], startedAtMs: 1_767_000_000_000 } });
      const gate = new IdOrderGate(k.ws, { ports: { ...k.ports, proc: other }, registry: k.registry });
      const g = await gate.enter({ session: 'reviewer-hermes-09', cwd: k.ws, herdrServer: 'default' });
      if (g.kind !== 'passed') throw new Error(g.message);
      pane = k.herdr.addAgent({ name: 'reviewer-hermes-09', kind: 'hermes', cwd: k.ws, label: 'ws' }).paneId;
      await g.ticket.notePane(pane);
      orphan = g.ticket;
      k.herdr.calls.length = 0;
    });
    afterEach(async () => {
      await orphan.release();
    });

    it('the next same-cwd create is refused while herdr still lists the orphan, and starts nothing', async () => {
      const r = await k.life().create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' });
      expect(r.kind === 'failed' && r.step).toBe('gate');
      if (r.kind !== 'failed') return;
      expect(r.refusal?.blockers).toMatchObject([{ state: 'orphan-alive', closeCommand: `herdr --session default pane close ${pane}` }]);
      expect(r.error.message).toContain(`to close the orphaned session: herdr --session default pane close ${pane}`);
      expect(k.ops().filter((op) => op !== 'agentPresence')).toEqual([]);
      expect((await k.registry.snapshot()).herdr_sessions).toEqual([]);
    });

    it('once herdr reports the orphan gone, the marker is pruned and the create runs', async () => {
      k.herdr.exitAgent('reviewer-hermes-09');
      k.herdr.onStart = () => k.hermesSession(IDS[0] as string, k.clock.now() / 1000 + 1);
      expect(created(await k.life().create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' })).id).toBe(IDS[0]);
    });

    it('once its row is registered for the attempt, the row decides (herdr is not asked)', async () => {
      await k.registry.update((d) => void d.herdr_sessions.push(makeRow('reviewer-hermes-09', 'hermes', k.ws, { epoch: Math.floor(k.clock.now() / 1000) })));
      k.herdr.onStart = () => k.hermesSession(IDS[0] as string, k.clock.now() / 1000 + 1);
      created(await k.life().create({ name: 'reviewer-hermes-01', agent: 'hermes', role: 'reviewer' }));
      expect(k.ops()).not.toContain('agentPresence');
    });

    it('a retry under the orphan\'s own session name does not take its marker over', async () => {
      const r = await k.life().create({ name: 'reviewer-hermes-09', agent: 'hermes', role: 'reviewer' });
      expect(r.kind === 'failed' && r.step).toBe('gate');
      expect(k.ops()).not.toContain('agentStart');
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProcessInfo } from '../../src/ports/process.js';
import { AGENT_NAMES } from '../../src/ids/agent-names.js';
import { agentCliName, helperChain } from '../../src/process/index.js';

const NAMES = [...AGENT_NAMES, 'bash', 'sh', 'node', 'python3', 'tmux', 'init', 'sleep'];

// A random process table: pids 1..n, any parent (0..n, so cycles, self-parents and dangling parents happen), argv that may be an agent CLI directly or via an interpreter.
const forest = fc.integer({ min: 1, max: 40 }).chain((n) =>
  fc.tuple(
    fc.array(
      fc.record({
        ppid: fc.integer({ min: 0, max: n + 3 }),
        name: fc.constantFrom(...NAMES),
        viaNode: fc.boolean(),
      }),
      { minLength: n, maxLength: n },
    ),
    fc.integer({ min: 1, max: n + 3 }),
  ),
);

function toSnapshot(rows: Array<{ ppid: number; name: string; viaNode: boolean }>): ProcessInfo[] {
  return rows.map((r, i) => {
    const argv = r.viaNode ? ['node', `/usr/local/bin/${r.name}`, '--flag'] : [`/usr/bin/${r.name}`, '--flag'];
    return { pid: i + 1, ppid: r.ppid, startedAtMs: null, argv, command: argv.join(' '), comm: r.viaNode ? 'node' : r.name };
  });
}

describe('helperChain over random process forests', () => {
  it('starts with self, holds no agent CLI above self, has no repeats, and follows parent links', () => {
    fc.assert(
      fc.property(forest, ([rows, self]) => {
        const snap = toSnapshot(rows);
        const byPid = new Map(snap.map((p) => [p.pid, p]));
        const { chain, agentAncestor } = helperChain(snap, self);
        expect(chain[0]).toBe(self);
        expect(new Set(chain).size).toBe(chain.length);
        expect(chain.length).toBeLessThanOrEqual(snap.length + 1);
        for (const pid of chain.slice(1)) expect(agentCliName(byPid.get(pid) as ProcessInfo)).toBeNull();
        for (let i = 1; i < chain.length; i++) expect(byPid.get(chain[i - 1] as number)?.ppid).toBe(chain[i]);
        if (agentAncestor !== null) {
          expect(agentCliName(agentAncestor)).not.toBeNull();
          expect(byPid.get(chain[chain.length - 1] as number)?.ppid).toBe(agentAncestor.pid);
          expect(chain).not.toContain(agentAncestor.pid);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('returns the nearest agent ancestor: a walk of the raw parent links meets no other agent first', () => {
    fc.assert(
      fc.property(forest, ([rows, self]) => {
        const snap = toSnapshot(rows);
        const byPid = new Map(snap.map((p) => [p.pid, p]));
        const { agentAncestor } = helperChain(snap, self);
        // Independent walk: the first agent among ancestors (pid 1 included, cycles cut).
        const seen = new Set<number>([self]);
        let cur = byPid.get(self);
        let expected: number | null = null;
        while (cur !== undefined && cur.pid !== 1 && cur.ppid > 0 && !seen.has(cur.ppid)) {
          const parent = byPid.get(cur.ppid);
          if (parent === undefined) break;
          if (agentCliName(parent) !== null) {
            expected = parent.pid;
            break;
          }
          seen.add(parent.pid);
          cur = parent;
        }
        expect(agentAncestor?.pid ?? null).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });
});

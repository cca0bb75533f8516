import { describe, expect, it } from 'vitest';
import type { PurgePlan } from '../../../src/purge/purge-plan.js';
import { type PurgeResult, purgeExitCode, verdictExitCode } from '../../../src/purge/purge-result.js';

describe('purge exit codes', () => {
  it('a verdict exits 0 purge, 4 in use, 5 unresolved, 6 refused or not of the workspace, 7 partial', () => {
    expect([verdictExitCode('purge'), verdictExitCode('in-use'), verdictExitCode('unresolved'), verdictExitCode('not-in-workspace'), verdictExitCode('refused'), verdictExitCode('partial')]).toEqual([0, 4, 5, 6, 6, 7]);
  });

  it('a result exits by its kind, and a dry run by its plan', () => {
    const results: Array<[PurgeResult, number]> = [
      [{ kind: 'purged', agent: 'codex', purged: [], residual: [], mentions: [], notes: [], otherAgents: [], inUse: false }, 0],
      [{ kind: 'in-use', agent: 'codex', holders: [], hints: [], inUse: true }, 4],
      [{ kind: 'unresolved', agent: null }, 5],
      [{ kind: 'not-in-workspace', agent: 'codex', workspace: '/w', reason: 'r', inUse: false }, 6],
      [{ kind: 'refused', agent: 'codex', refused: [], reason: 'r', faults: [], inUse: false }, 6],
      [{ kind: 'refused', agent: null, refused: [], reason: 'r', faults: [], inUse: false }, 6],
      [{ kind: 'partial', agent: 'codex', purged: [], residual: [], faults: [], mentions: [], notes: [], otherAgents: [], inUse: false }, 7],
      [{ kind: 'dry-run', agent: 'codex', plan: { verdict: 'partial' } as PurgePlan, inUse: false }, 7],
      [{ kind: 'changed', agent: 'codex', changes: [], inUse: false }, 6],
      [{ kind: 'dry-run', agent: 'codex', plan: { verdict: 'in-use' } as PurgePlan, inUse: true }, 4],
      [{ kind: 'dry-run', agent: null, plan: { verdict: 'unresolved' } as PurgePlan, inUse: false }, 5],
    ];
    expect(results.map(([r]) => purgeExitCode(r))).toEqual(results.map(([, code]) => code));
  });
});

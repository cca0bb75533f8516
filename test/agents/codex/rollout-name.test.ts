import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rolloutNameId } from '../../../src/agents/codex/rollout-name.js';
import { isSnapshotOf } from '../../../src/agents/codex/snapshot-name.js';

const ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';
const uuid = fc.uuid().map((u) => u.toLowerCase());

describe('rollout and snapshot names', () => {
  it('takes the id from a rollout name, lower-cased', () => {
    expect(rolloutNameId(`/x/rollout-2026-11-30T00-55-12-${ID}.jsonl`)).toBe(ID);
    expect(rolloutNameId(`rollout-2026-11-30T00-55-12-${ID.toUpperCase()}.jsonl`)).toBe(ID);
    for (const bad of [`${ID}.jsonl`, `rollout-${ID}.json`, `rollout-x-${ID}.jsonl.bak`, 'rollout-x-memory.jsonl', `xrollout-x-${ID}.jsonl`]) expect(rolloutNameId(bad), bad).toBeNull();
  });

  it('round-trips any uuid (property)', () => {
    fc.assert(
      fc.property(uuid, fc.stringMatching(/^[0-9T-]{1,20}$/), (id, ts) => {
        expect(rolloutNameId(`rollout-${ts}-${id}.jsonl`)).toBe(id);
      }),
    );
  });

  it('a snapshot belongs to exactly its own id (property)', () => {
    expect(isSnapshotOf(`${ID}.1795999161541055875.sh`, ID)).toBe(true);
    expect(isSnapshotOf(`${ID}.`, ID)).toBe(false);
    expect(isSnapshotOf(`${ID}x.1.sh`, ID)).toBe(false);
    fc.assert(
      fc.property(uuid, uuid, fc.bigInt({ min: 0n, max: 2n ** 63n }), (a, b, n) => {
        expect(isSnapshotOf(`${a}.${n}.sh`, b)).toBe(a === b);
      }),
    );
  });
});

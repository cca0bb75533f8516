import { describe, expect, it } from 'vitest';
import { isMamError } from '../../../src/errors.js';
import { pinRow, RegistryIdClaimedError, type RegistryState, type SessionRow } from '../../../src/registry/index.js';
import { makeRow, UA, UB, UORC } from '../../helpers/registry-fixtures.js';

function state(rows: SessionRow[], orchestrators: string[] = []): RegistryState {
  return { herdr_sessions: rows, orchestrator_uuids: orchestrators };
}

describe('pinRow let two rows record the same id without a word', () => {
  it('refuses an id another row records (any spelling), naming that row, and changes nothing', () => {
    const s = state([makeRow('a', 'claude', '/w', { ownId: UA }), makeRow('b', 'claude', '/w')]);
    const before = structuredClone(s);
    let thrown: unknown;
    try {
      pinRow(s, 'b', UA.toUpperCase());
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(RegistryIdClaimedError);
    expect(isMamError(thrown) && thrown.code).toBe('REGISTRY_ID_CLAIMED');
    expect((thrown as RegistryIdClaimedError).data).toEqual({ row: 'b', agent: 'claude', id: UA, claimedBy: 'a' });
    expect(s).toEqual(before);
  });

  it('refuses an id another row records under another agent\'s key, and an orchestrator\'s id', () => {
    const s = state([{ ...makeRow('a', 'codex', '/w'), claude_session_id_own: UA }, makeRow('b', 'claude', '/w')], [UORC]);
    expect(() => pinRow(s, 'b', UA)).toThrow(RegistryIdClaimedError);
    expect(() => pinRow(s, 'b', UORC)).toThrow(expect.objectContaining({ data: expect.objectContaining({ claimedBy: 'orchestrator' }) }));
  });

  it('pins a shared id when told to with allowShared', () => {
    const s = state([makeRow('a', 'claude', '/w', { ownId: UA }), makeRow('b', 'claude', '/w')]);
    pinRow(s, 'b', UA, { allowShared: true });
    expect(s.herdr_sessions[1]?.claude_session_id_own).toBe(UA);
  });

  it('re-pinning the row\'s own id, or a fresh id, is never refused', () => {
    const s = state([makeRow('a', 'claude', '/w', { ownId: UA }), makeRow('b', 'claude', '/w', { ownId: UB })]);
    expect(pinRow(s, 'a', UA).claude_session_id_own).toBe(UA);
    expect(pinRow(s, 'a', UA.toUpperCase()).claude_session_id_own).toBe(UA);
    const fresh = '0c0ffee0-0000-4000-8000-000000000001';
    expect(pinRow(s, 'a', fresh).claude_session_id_own).toBe(fresh);
  });
});

import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidIdError, UnknownAgentError } from '../../../src/errors.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import {
  addOrchestrator,
  controlRootRows,
  idsClaimedByOthers,
  listOrchestrators,
  pinRow,
  type RegistryState,
  RegistryRowNotFoundError,
  realpathLenient,
  recordedId,
  removeOrchestrator,
  rowAgent,
  rowByName,
  rowsByStatus,
  type SessionRow,
  SessionRegistry,
} from '../../../src/registry/index.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { makeRow, UA, UB, UC, UORC } from '../../helpers/registry-fixtures.js';

const OC = 'ses_0123456789abAbCdEfGhIjKlMn';
// OpenCode ids are case-sensitive: this is another conversation.
const OC2 = 'ses_0123456789ababCdEfGhIjKlMn';

function state(rows: SessionRow[], orchestrators: string[] = []): RegistryState {
  return { herdr_sessions: rows, orchestrator_uuids: orchestrators };
}

describe('row helpers', () => {
  it('rowAgent: the agent field, else the one own key the row carries, else a canonical pane command', () => {
    expect(rowAgent(makeRow('a', 'codex', '/w'))).toBe('codex');
    expect(rowAgent({ name: 'x', status: 'running', agy_conversation_id_own: null, pane: { cmd: 'bash' } })).toBe('agy');
    expect(rowAgent({ name: 'x', status: 'running', pane: { cmd: 'hermes' } })).toBe('hermes');
    expect(rowAgent({ name: 'x', status: 'running', pane: { cmd: 'bash' } })).toBeUndefined();
    expect(rowAgent({ name: 'x', status: 'running', claude_session_id_own: UA, grok_session_id_own: UB })).toBeUndefined();
  });

  it('recordedId: the value under the agent\'s own key, null when absent or empty', () => {
    expect(recordedId(makeRow('a', 'claude', '/w', { ownId: UA }))).toBe(UA);
    expect(recordedId(makeRow('a', 'claude', '/w'))).toBeNull();
    expect(recordedId({ ...makeRow('a', 'claude', '/w'), claude_session_id_own: '' })).toBeNull();
    // Another agent's key on the row is not this row's id.
    expect(recordedId({ ...makeRow('a', 'claude', '/w'), codex_session_id_own: UB })).toBeNull();
    expect(recordedId({ name: 'x', status: 'stopped', hermes_conversation_id_own: UC })).toBe(UC);
  });

  it('idsClaimedByOthers: every other row\'s ids and the orchestrators, never the row\'s own', () => {
    const s = state([makeRow('me', 'agy', '/w', { ownId: UA }), makeRow('you', 'claude', '/w', { ownId: UB }), { ...makeRow('they', 'codex', '/w'), grok_session_id_own: UC }], [UORC]);
    expect(idsClaimedByOthers(s, 'me')).toEqual([UB, UC, UORC]);
    expect(idsClaimedByOthers(s, 'you')).toEqual([UA, UC, UORC]);
    expect(idsClaimedByOthers(s, 'me', { includeOrchestrators: false })).toEqual([UB, UC]);
    expect(idsClaimedByOthers(s, 'nobody')).toEqual([UA, UB, UC, UORC]);
  });

  it('rowByName and rowsByStatus', () => {
    const s = state([makeRow('a', 'agy', '/w'), makeRow('b', 'agy', '/w', { status: 'stopped' }), makeRow('c', 'agy', '/w')]);
    expect(rowByName(s, 'b')?.status).toBe('stopped');
    expect(rowByName(s, 'z')).toBeUndefined();
    expect(rowsByStatus(s, 'running').map((r) => r.name)).toEqual(['a', 'c']);
    expect(rowsByStatus(s, 'terminated')).toEqual([]);
  });

  it('pinRow: own key (canonical id), source discovered, verified true; every other field kept', () => {
    const row = { ...makeRow('r', 'agy', '/w'), autopin_error: 'ambiguous' };
    const s = state([row]);
    pinRow(s, 'r', UA.toUpperCase());
    expect(s.herdr_sessions[0]).toEqual({ ...row, agy_conversation_id_own: UA, session_id_source: 'discovered', session_id_verified: true });
    const keys = Object.keys(s.herdr_sessions[0] as object);
    expect(keys).toEqual(Object.keys(row));
  });

  it('pinRow refuses a missing row, a row whose agent cannot be told, and an implausible id', () => {
    const s = state([makeRow('r', 'opencode', '/w'), { name: 'mystery', status: 'running' }]);
    expect(() => pinRow(s, 'nope', UA)).toThrow(RegistryRowNotFoundError);
    expect(() => pinRow(s, 'mystery', UA)).toThrow(UnknownAgentError);
    expect(() => pinRow(s, 'r', UA)).toThrow(InvalidIdError);
    expect(() => pinRow(s, 'r', '../etc')).toThrow(InvalidIdError);
    pinRow(s, 'r', OC);
    expect(s.herdr_sessions[0]?.opencode_session_id_own).toBe(OC);
  });

  it('orchestrators: add (canonical, once), remove (any case of a uuid), list', () => {
    const s = state([]);
    expect(addOrchestrator(s, UORC.toUpperCase())).toBe(true);
    expect(addOrchestrator(s, UORC)).toBe(false);
    expect(addOrchestrator(s, OC)).toBe(true);
    expect(addOrchestrator(s, OC2)).toBe(true);
    expect(() => addOrchestrator(s, 'not-an-id')).toThrow(InvalidIdError);
    expect(listOrchestrators(s)).toEqual([UORC, OC, OC2]);
    expect(removeOrchestrator(s, UORC.toUpperCase())).toBe(true);
    expect(removeOrchestrator(s, UORC)).toBe(false);
    expect(listOrchestrators(s)).toEqual([OC, OC2]);
    const listed = listOrchestrators(s);
    listed.pop();
    expect(s.orchestrator_uuids).toHaveLength(2);
  });

  it('pinRow and the orchestrator helpers work through update()', async () => {
    const { dir, dispose } = await makeTempDir('mam-reg-help-');
    try {
      const registry = new SessionRegistry(dir);
      await registry.update((d) => {
        d.herdr_sessions.push(makeRow('r', 'claude', dir));
        addOrchestrator(d, UORC);
      });
      await registry.update((d) => pinRow(d, 'r', UA));
      const s = await registry.snapshot();
      expect(recordedId(s.herdr_sessions[0] as SessionRow)).toBe(UA);
      expect(listOrchestrators(s)).toEqual([UORC]);
    } finally {
      await dispose();
    }
  });
});

describe('controlRootRows', () => {
  const fs = new NodeFileSystem();
  let dir: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-reg-root-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('keeps rows whose pane cwd is the workspace itself, through symlinks on either side, in registry order', async () => {
    const ws = join(dir, 'ws');
    const wt = join(ws, 'wt', 'x');
    await mkdir(wt, { recursive: true });
    await symlink(ws, join(dir, 'sym-ws'));
    const s = state([
      makeRow('reviewer-claude-01', 'claude', ws),
      makeRow('reviewer-grok-01', 'grok', join(dir, 'sym-ws')),
      makeRow('creator-claude-wt', 'claude', wt),
      makeRow('trailing-slash', 'codex', `${ws}/`),
      makeRow('dotted', 'codex', join(ws, 'wt', '..')),
      { name: 'no-pane', status: 'running', agent: 'agy' },
      makeRow('elsewhere', 'agy', join(dir, 'other')),
    ]);
    expect((await controlRootRows(s, ws, fs)).map((r) => r.name)).toEqual(['reviewer-claude-01', 'reviewer-grok-01', 'trailing-slash', 'dotted']);
    // Asked through the link, the answer is the same.
    expect((await controlRootRows(s, join(dir, 'sym-ws'), fs)).map((r) => r.name)).toEqual(['reviewer-claude-01', 'reviewer-grok-01', 'trailing-slash', 'dotted']);
  });

  it('realpathLenient resolves a missing path like Python\'s os.path.realpath', async () => {
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'link'));
    expect(await realpathLenient(fs, join(dir, 'link', 'gone', 'deeper'))).toBe(join(dir, 'real', 'gone', 'deeper'));
    expect(await realpathLenient(fs, join(dir, 'link'))).toBe(join(dir, 'real'));
  });
});

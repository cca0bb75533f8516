// The open door in the registry: a row of an agent defined outside the package (defineAgent), passed to
// `new SessionRegistry(w, { agents })` and to the row functions, loads, validates, is pinned and round-trips (YAML and
// mirror); without the definition such a row is refused exactly as before.
import Database from 'better-sqlite3';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineAgent } from '../../../src/agents/contract/agent-definition.js';
import { InvalidIdError, UnknownAgentError } from '../../../src/errors.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { enableSqliteUri } from '../../../src/node/sqlite-uri.js';
import {
  idsClaimedByOthers,
  pinRow,
  pinUnclaimed,
  type RegistryState,
  RegistryCorruptError,
  RegistryIdClaimedError,
  RegistryInvalidUpdateError,
  recordedId,
  rowAgent,
  type SessionRow,
  SessionRegistry,
  SessionRowSchema,
} from '../../../src/registry/index.js';
import { AGENT_NAMES, OWN_KEYS } from '../../../src/ids/agent-names.js';
import { notes } from '../../helpers/notes-agent.js';
import { makeRow, makeWorkspace, UA, UB, UC } from '../../helpers/registry-fixtures.js';
import { readMirror } from '../../helpers/registry-mirror.js';

const agents = [notes];
const NA = 'a1000001-0000-4000-8000-00000000000a';

function notesRow(name: string, id: string | null = null): SessionRow {
  return { name, status: 'running', agent: 'notes' as never, notes_session_id_own: id, pane: { cwd: '/w', cmd: 'notes' } } as SessionRow;
}

function state(rows: SessionRow[], orchestrators: string[] = []): RegistryState {
  return { herdr_sessions: rows, orchestrator_uuids: orchestrators };
}

describe('row functions with outside agents', () => {
  it('rowAgent and recordedId know an outside agent only when it is passed', () => {
    const row = notesRow('n1', NA);
    const agent: 'notes' | 'claude' | 'agy' | 'codex' | 'grok' | 'hermes' | 'opencode' | 'gemini' | undefined = rowAgent(row, { agents });
    expect(agent).toBe('notes');
    expect(recordedId(row, { agents })).toBe(NA);
    expect(rowAgent(row)).toBeUndefined();
    expect(recordedId(row)).toBeNull();
    // Inferred from its own key, as for a built-in.
    const bare = { name: 'n2', status: 'running', notes_session_id_own: NA } as SessionRow;
    expect(rowAgent(bare, { agents })).toBe('notes');
    expect(rowAgent({ name: 'n3', status: 'running', pane: { cmd: 'notes' } }, { agents })).toBe('notes');
    expect(rowAgent(makeRow('c', 'claude', '/w', { ownId: UA }), { agents })).toBe('claude');
  });

  it('idsClaimedByOthers counts outside own keys with the definitions', () => {
    const s = state([notesRow('n1', NA), makeRow('c', 'claude', '/w', { ownId: UA }), makeRow('d', 'codex', '/w', { ownId: UB })]);
    expect(idsClaimedByOthers(s, 'd', { agents })).toEqual([NA, UA]);
    expect(idsClaimedByOthers(s, 'd')).toEqual([UA]);
  });

  it('pinRow pins an outside row under its own key (canonical spelling), and refuses an id another row records', () => {
    const s = state([notesRow('n1'), notesRow('n2', NA), makeRow('c', 'claude', '/w', { ownId: UA })]);
    const row = pinRow(s, 'n1', UC.toUpperCase(), { agents });
    expect(row).toMatchObject({ notes_session_id_own: UC, session_id_source: 'discovered', session_id_verified: true });
    // Another outside row's id, and a built-in row's id, are both claimed.
    expect(() => pinRow(s, 'n1', NA, { agents })).toThrow(RegistryIdClaimedError);
    expect(() => pinRow(s, 'n1', UA, { agents })).toThrow(RegistryIdClaimedError);
    // A built-in row cannot take an id an outside row records either.
    s.herdr_sessions.push(makeRow('g', 'grok', '/w'));
    expect(() => pinRow(s, 'g', NA, { agents })).toThrow(RegistryIdClaimedError);
    expect(() => pinRow(s, 'n1', 'not-an-id', { agents })).toThrow(InvalidIdError);
    // Without the definition the row's agent cannot be told.
    expect(() => pinRow(s, 'n1', UC)).toThrow(UnknownAgentError);
  });

  it('pinUnclaimed with an outside agent', () => {
    const s = state([notesRow('n1'), notesRow('n2', NA)]);
    expect(pinUnclaimed(s, s.herdr_sessions[0] as SessionRow, 'notes', NA, { agents })).toBe('claimed-by-other-row');
    expect(pinUnclaimed(s, s.herdr_sessions[0] as SessionRow, 'notes', UC, { agents })).toBe('pinned');
    expect(pinUnclaimed(s, s.herdr_sessions[0] as SessionRow, 'notes', UB, { agents })).toBe('already-recorded');
  });
});

describe('SessionRegistry with outside agents', () => {
  let w: Awaited<ReturnType<typeof makeWorkspace>>;
  beforeEach(async () => {
    w = await makeWorkspace('mam-reg-door-');
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('a row of an outside agent is written, read back, pinned and mirrored', async () => {
    const reg = new SessionRegistry(w.ws, { agents });
    expect(reg.agents).toEqual([notes]);
    await reg.update((d) => {
      d.herdr_sessions.push(notesRow('n1'), makeRow('c', 'claude', w.ws, { ownId: UA }));
    });
    await reg.update((d) => pinRow(d, 'n1', NA, { agents: reg.agents }));
    const snap = await reg.snapshot();
    expect(snap.herdr_sessions[0]).toMatchObject({ name: 'n1', agent: 'notes', notes_session_id_own: NA, session_id_source: 'discovered' });
    const yaml = await readFile(w.yaml, 'utf8');
    expect(yaml).toContain('agent: notes');
    expect(yaml).toContain(`notes_session_id_own: ${NA}`);
    // A fresh instance (no cache) reads it; strictly and leniently.
    const again = new SessionRegistry(w.ws, { agents });
    expect((await again.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['n1', 'c']);
    expect((await again.inspect()).invalidRows).toEqual([]);
    // The mirror holds the row and its own id under own_id.
    expect(readMirror(w.db)?.rows).toEqual(JSON.parse(JSON.stringify(snap.herdr_sessions)));
    enableSqliteUri();
    const db = new Database(w.db, { readonly: true });
    try {
      expect(db.prepare('SELECT name, agent, own_id FROM sessions ORDER BY seq').all()).toEqual([
        { name: 'n1', agent: 'notes', own_id: NA },
        { name: 'c', agent: 'claude', own_id: UA },
      ]);
    } finally {
      db.close();
    }
    reg.close();
    again.close();
  });

  it('without the definition, a row naming the outside agent is refused as before', async () => {
    const reg = new SessionRegistry(w.ws, { agents });
    await reg.update((d) => {
      d.herdr_sessions.push(notesRow('n1', NA));
    });
    reg.close();
    const plain = new SessionRegistry(w.ws);
    const err = await plain.snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryCorruptError);
    expect((err as RegistryCorruptError).data.issues[0]).toMatchObject({ problem: 'unknown-agent', field: 'agent' });
    const lenient = await plain.inspect();
    expect(lenient.invalidRows.map((r) => r.name)).toEqual(['n1']);
    plain.close();
  });

  it('a row naming an agent nobody passed is refused, with the known agents named', async () => {
    const reg = new SessionRegistry(w.ws, { agents });
    const err = await reg.update((d) => {
      d.herdr_sessions.push({ ...notesRow('x'), agent: 'other' as never });
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryInvalidUpdateError);
    expect((err as RegistryInvalidUpdateError).message).toContain('unknown agent "other"');
    expect((err as RegistryInvalidUpdateError).message).toContain(`expected one of ${[...AGENT_NAMES, 'notes'].join(', ')})`);
    reg.close();
  });

  it('an outside own key holding something other than text is refused; the other fields are still checked', async () => {
    const reg = new SessionRegistry(w.ws, { agents });
    const bad = (row: SessionRow): Promise<unknown> => reg.update((d) => {
      d.herdr_sessions.push(row);
    }).catch((e: unknown) => e);
    expect(await bad({ ...notesRow('x'), notes_session_id_own: 42 } as SessionRow)).toBeInstanceOf(RegistryInvalidUpdateError);
    expect(await bad({ ...notesRow('x'), status: 'sleeping' } as unknown as SessionRow)).toBeInstanceOf(RegistryInvalidUpdateError);
    expect(await bad({ ...notesRow('x'), claude_session_id_own: 7 } as unknown as SessionRow)).toBeInstanceOf(RegistryInvalidUpdateError);
    reg.close();
  });

  it('a file written by hand with an outside row loads with the definition', async () => {
    await writeFile(w.yaml, `herdr_sessions:\n- name: n1\n  status: stopped\n  agent: notes\n  notes_session_id_own: ${NA}\norchestrator_uuids: []\n`);
    const reg = new SessionRegistry(w.ws, { agents });
    const [row] = (await reg.snapshot()).herdr_sessions;
    expect(recordedId(row as SessionRow, { agents })).toBe(NA);
    reg.close();
  });

  it('refuses outside definitions that would clash: a built-in name or own key, a row field, twice', () => {
    const like = (name: string, ownKey: string) => defineAgent({ ...notes, name, ownKey });
    expect(() => new SessionRegistry(w.ws, { agents: [like('claude', 'x_own')] })).toThrow(InvalidArgumentError);
    expect(() => new SessionRegistry(w.ws, { agents: [like('mine', 'claude_session_id_own')] })).toThrow(/own key "claude_session_id_own" is already another agent's/);
    expect(() => new SessionRegistry(w.ws, { agents: [like('mine', 'status')] })).toThrow(/a field every registry row has/);
    expect(() => new SessionRegistry(w.ws, { agents: [notes, like('notes2', 'notes_session_id_own')] })).toThrow(InvalidArgumentError);
    expect(() => new SessionRegistry(w.ws, { agents: [notes, notes] })).toThrow(/given twice/);
    expect(() => new SessionRegistry(w.ws, { agents: 'notes' as never })).toThrow(InvalidArgumentError);
    expect(() => pinRow(state([]), 'x', UA, { agents: [like('codex', 'y_own')] })).toThrow(InvalidArgumentError);
  });

  it('no field of the row schema can be an outside own key', () => {
    const fields = Object.keys(SessionRowSchema.shape).filter((k) => !OWN_KEYS.includes(k));
    expect(fields.length).toBeGreaterThan(10);
    for (const f of fields) expect(() => new SessionRegistry(w.ws, { agents: [defineAgent({ ...notes, ownKey: f })] }), f).toThrow(InvalidArgumentError);
  });
});

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RegistryCorruptError, type RegistryProblem, SessionRegistry } from '../../../src/registry/index.js';
import { makeWorkspace } from '../../helpers/registry-fixtures.js';

const ROW = '- name: ok-row\n  status: running\n  agent: claude\n';

interface Case {
  what: string;
  text: string;
  problem: RegistryProblem;
  row?: string;
  field?: string;
  says: RegExp;
}

const CASES: Case[] = [
  { what: 'an empty file', text: '', problem: 'empty', says: /the file is empty/ },
  { what: 'a blank file', text: '\n  \n', problem: 'empty', says: /the file is empty/ },
  { what: 'a comment-only file', text: '# nothing here\n', problem: 'empty', says: /the file is empty/ },
  { what: 'broken YAML', text: 'herdr_sessions:\n- name: [unclosed\n', problem: 'yaml', says: /invalid YAML/ },
  { what: 'a truncated file', text: `herdr_sessions:\n${ROW}- name: "cut off`, problem: 'yaml', says: /invalid YAML/ },
  { what: 'bytes that are not UTF-8', text: '\u0000', problem: 'yaml', says: /not UTF-8/ },
  { what: 'a top-level list', text: '- a\n- b\n', problem: 'not-a-mapping', says: /top level is a list, not a mapping/ },
  { what: 'a mapping for herdr_sessions', text: 'herdr_sessions:\n  name: x\n', problem: 'not-a-list', field: 'herdr_sessions', says: /herdr_sessions is a mapping, not a list/ },
  { what: 'a string for herdr_sessions', text: 'herdr_sessions: nope\n', problem: 'not-a-list', field: 'herdr_sessions', says: /herdr_sessions is a string, not a list/ },
  { what: 'a mapping for orchestrator_uuids', text: 'orchestrator_uuids: {a: 1}\nherdr_sessions: []\n', problem: 'not-a-list', field: 'orchestrator_uuids', says: /orchestrator_uuids is a mapping/ },
  { what: 'a row that is a string', text: `herdr_sessions:\n${ROW}- just-a-name\n`, problem: 'row-not-a-mapping', row: '#1', says: /row #1 of herdr_sessions is a string/ },
  {
    what: 'an unknown agent',
    text: 'herdr_sessions:\n- name: mystery-row\n  status: running\n  agent: not-an-agent\n',
    problem: 'unknown-agent',
    row: 'mystery-row',
    field: 'agent',
    says: /row mystery-row: unknown agent "not-an-agent" in field agent/,
  },
  { what: 'a non-canonical agent', text: 'herdr_sessions:\n- name: shouty\n  status: running\n  agent: CLAUDE\n', problem: 'unknown-agent', row: 'shouty', field: 'agent', says: /unknown agent "CLAUDE"/ },
  { what: 'a duplicate row name', text: `herdr_sessions:\n${ROW}${ROW}`, problem: 'duplicate-name', row: 'ok-row', field: 'name', says: /duplicate row name "ok-row" \(herdr_sessions\[0\] and herdr_sessions\[1\]\)/ },
  { what: 'a bad status', text: 'herdr_sessions:\n- name: r1\n  status: sleeping\n', problem: 'invalid-field', row: 'r1', field: 'status', says: /row r1: field status: .*found "sleeping"/ },
  { what: 'a row without a name', text: 'herdr_sessions:\n- status: running\n', problem: 'invalid-field', row: '#0', field: 'name', says: /row #0: field name/ },
  { what: 'a fractional pane pid', text: 'herdr_sessions:\n- name: r2\n  status: running\n  pane:\n    pid: 1.5\n', problem: 'invalid-field', row: 'r2', field: 'pane.pid', says: /row r2: field pane\.pid: .*found 1\.5/ },
  { what: 'a YAML set in a row', text: 'herdr_sessions:\n- name: r3\n  status: running\n  odd: !!set {a, b}\n', problem: 'unsupported-value', row: 'r3', field: 'odd', says: /row r3: field odd holds a Set/ },
  { what: 'a __proto__ key at the top', text: "'__proto__': {polluted: true}\nherdr_sessions: []\n", problem: 'unsupported-value', field: 'the top level', says: /the top level holds a key named __proto__/ },
  { what: 'a __proto__ key in a row', text: 'herdr_sessions:\n- name: r4\n  status: running\n  pane: {"__proto__": 1}\n', problem: 'unsupported-value', row: 'r4', field: 'pane', says: /row r4: field pane holds a key named __proto__/ },
];

describe('SessionRegistry on a bad registry file', () => {
  let ws: string;
  let yaml: string;
  let db: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ ws, yaml, db, dispose } = await makeWorkspace());
  });
  afterEach(async () => {
    await dispose();
  });

  for (const c of CASES) {
    it(`${c.what}: a typed error naming the problem, and no update writes over the file`, async () => {
      const bytes = c.what.includes('UTF-8') ? Buffer.from([0x68, 0x3a, 0x20, 0xff, 0xfe, 0x0a]) : Buffer.from(c.text, 'utf8');
      await writeFile(yaml, bytes);
      const registry = new SessionRegistry(ws);
      const err = await registry.snapshot().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RegistryCorruptError);
      const e = err as RegistryCorruptError;
      expect(e.code).toBe('REGISTRY_CORRUPT');
      expect(e.data.problem).toBe(c.problem);
      expect(e.data.path).toBe(yaml);
      expect(e.data.row).toBe(c.row);
      expect(e.data.field).toBe(c.field);
      expect(e.message).toMatch(c.says);
      expect(e.message).toContain(yaml);
      expect(e.message).toContain('check it, then fix or remove it by hand');

      let called = false;
      const upd = await registry.update(() => {
        called = true;
      }).catch((x: unknown) => x);
      expect(upd).toBeInstanceOf(RegistryCorruptError);
      expect(called).toBe(false);
      expect(await readFile(yaml)).toEqual(bytes);
      expect(existsSync(db)).toBe(false);
    });
  }

  it('names every bad row at once, so a planner can report each', async () => {
    await writeFile(yaml, 'herdr_sessions:\n- name: a\n  status: running\n  agent: nope\n- name: b\n  status: odd\n- name: c\n  status: running\n');
    const err = (await new SessionRegistry(ws).snapshot().catch((e: unknown) => e)) as RegistryCorruptError;
    expect(err.data.issues.map((i) => [i.row, i.field, i.problem])).toEqual([
      ['a', 'agent', 'unknown-agent'],
      ['b', 'status', 'invalid-field'],
    ]);
    expect(err.message).toMatch(/\(and 1 more problem\)/);
  });

  it('inspect() keeps the good rows and sets the bad ones apart, with their issues', async () => {
    await writeFile(yaml, 'orchestrator_uuids: [e7800005-0000-4000-8000-000000000005]\nherdr_sessions:\n- name: good\n  status: running\n  agent: claude\n- name: mystery-row\n  status: running\n  agent: not-an-agent\n  pane: {cwd: /w}\n');
    const { state, invalidRows } = await new SessionRegistry(ws).inspect();
    expect(state.herdr_sessions.map((r) => r.name)).toEqual(['good']);
    expect(state.orchestrator_uuids).toEqual(['e7800005-0000-4000-8000-000000000005']);
    expect(invalidRows).toHaveLength(1);
    expect(invalidRows[0]?.name).toBe('mystery-row');
    expect(invalidRows[0]?.index).toBe(1);
    expect(invalidRows[0]?.row).toMatchObject({ agent: 'not-an-agent', pane: { cwd: '/w' } });
    expect(invalidRows[0]?.issues[0]?.problem).toBe('unknown-agent');
  });

  it('inspect() still refuses a file that is unreadable as a whole', async () => {
    await writeFile(yaml, 'herdr_sessions: {}\n');
    await expect(new SessionRegistry(ws).inspect()).rejects.toBeInstanceOf(RegistryCorruptError);
  });

  it('reads the reference tool\'s rows that carry no agent field, and a null list as empty', async () => {
    await writeFile(yaml, "herdr_sessions:\n- name: s-creator-agy\n  status: running\n  role: creator\n  agy_conversation_id_own: null\n  pane:\n    cwd: /w\n    cmd: agy\norchestrator_uuids:\n");
    const state = await new SessionRegistry(ws).snapshot();
    expect(state.herdr_sessions[0]?.name).toBe('s-creator-agy');
    expect(state.orchestrator_uuids).toEqual([]);
  });
});

import fc from 'fast-check';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../src/agents/hermes/hermes-adapter.js';
import { isPlausibleId } from '../../../src/ids/agent-id.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem, freshId, hashTree, portsWith } from '../../helpers/adapter-agy-files.js';
import { HERMES_SCHEMA, dumpRows, sessionSql, writeHermesDb } from '../../helpers/adapter-hermes-stage.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { strs } from '../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let ws: string;
let db: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-purge-'));
  home = join(dir, 'home');
  ws = join(dir, 'ws');
  db = join(home, '.hermes', 'state.db');
  mkdirSync(ws);
  // A home that exists: adapters refuse one that does not (INVALID_ARGUMENT).
  mkdirSync(home);
});
afterEach(() => dispose());

const hermes = (table = new FakeProcessTable([{ pid: 1, argv: ['init'] }])) => new HermesAdapter(portsWith(table));
const ctx = () => ({ workspace: ws, home: home });

describe('hermes purge: rows of the shared state.db, never the file', () => {
  it('deletes the session row and every session_id row of the id, nothing of the others', async () => {
    const [id, other] = [freshId(), freshId()];
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 3), ...sessionSql(other, ws, 2, 2)]);
    const h = hermes();
    expect(await h.hasArtifacts(id, ctx())).toBe(true);
    expect(strs(await h.residualArtifacts(id, ctx()))).toEqual([`${db} (messages.session_id: 3 rows)`, `${db} (sessions.id: 1 rows)`]);
    const before = await dumpRows(db);
    expect(strs(await h.purgeArtifacts(id, ctx()))).toEqual([`${db} (messages.session_id: 3 rows)`, `${db} (sessions.id: 1 rows)`]);
    const after = await dumpRows(db);
    expect(after['sessions']).toEqual(before['sessions']?.filter((r) => (r as { id: string }).id !== id));
    expect(after['messages']).toEqual(before['messages']?.filter((r) => (r as { session_id: string }).session_id !== id));
    expect(after['messages']).toHaveLength(2);
    expect(strs(await h.residualArtifacts(id, ctx()))).toEqual([]);
    expect(await h.hasArtifacts(id, ctx())).toBe(false);
    expect(readdirSync(join(home, '.hermes'))).toEqual(['state.db']);
    expect(strs(await h.mentions(id, ctx()))).toEqual([]);
  });

  it('matches rows recorded with an upper-case id', async () => {
    const id = freshId();
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(id.toUpperCase(), ws, 1, 1)]);
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toHaveLength(2);
    expect(await hermes().hasArtifacts(id, ctx())).toBe(false);
  });

  it('a missing database or an id without rows: nothing to do, nothing written', async () => {
    const id = freshId();
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(await hermes().hasArtifacts(id, ctx())).toBe(false);
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(freshId(), ws, 1, 1)]);
    const before = hashTree(home);
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(hashTree(home)).toEqual(before);
  });

  it('an unreadable database is residual (it says nothing of one conversation, so no artifact either)', async () => {
    mkdirSync(join(home, '.hermes'), { recursive: true });
    writeFileSync(db, 'garbage, not sqlite');
    const id = freshId();
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(strs(await hermes().residualArtifacts(id, ctx()))).toEqual([expect.stringMatching(/^.*state\.db \(unreadable: /)]);
    expect(await hermes().hasArtifacts(id, ctx())).toBe(false);
  });
});

describe('hermes: a layout it does not know fails closed', () => {
  it.each([
    ['no cwd column', ['CREATE TABLE sessions (id TEXT PRIMARY KEY, started_at REAL)', 'CREATE TABLE messages (session_id TEXT)'], 'no sessions(id, cwd, started_at) table'],
    ['triggers', [...HERMES_SCHEMA, 'CREATE TABLE log (x TEXT)', "CREATE TRIGGER gone AFTER DELETE ON messages BEGIN INSERT INTO log VALUES ('x'); END"], 'triggers gone'],
    ['a virtual table', [...HERMES_SCHEMA, 'CREATE VIRTUAL TABLE messages_fts USING fts5(content)'], 'virtual tables messages_fts without their delete triggers'],
  ])('%s: purge deletes nothing, residual shows the rows and the refusal', async (_label, schema, reason) => {
    const id = freshId();
    writeHermesDb(db, [...schema, `INSERT INTO sessions (id, started_at) VALUES ('${id}', 1)`, `INSERT INTO messages (session_id) VALUES ('${id}')`]);
    const before = hashTree(home);
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(hashTree(home)).toEqual(before);
    const residual = strs(await hermes().residualArtifacts(id, ctx()));
    expect(residual).toContain(`${db} (sessions.id: 1 rows)`);
    expect(residual).toContain(`${db} (messages.session_id: 1 rows)`);
    expect(residual[residual.length - 1]).toBe(`${db} (unknown layout: refusing to purge: ${reason})`);
    expect(await hermes().hasArtifacts(id, ctx())).toBe(true);
    expect(strs(await hermes().residualArtifacts(freshId(), ctx()))).toEqual([]);
  });
});

describe('hermes: safety', () => {
  it.each(['memory', 'notes', '../x', '/etc', '', 'a\0b', 'ses_0123456789abAbCdEfGhIjKlMn', '20260101_120000_ABCDEF', '20260101_120000_abcde', 'cron_../x_20260101_120000'])('%j reaches no path and no row', async (bad) => {
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(bad.replaceAll("'", '').replaceAll('\0', ''), ws, 1, 1)]);
    const spy = new SpyFileSystem();
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }]);
    const h = new HermesAdapter(portsWith(table, spy.port));
    const before = hashTree(home);
    expect(strs(await h.purgeArtifacts(bad, ctx()))).toEqual([]);
    expect(strs(await h.residualArtifacts(bad, ctx()))).toEqual([]);
    expect(await h.hasArtifacts(bad, ctx())).toBe(false);
    expect(await h.conversationInUse(bad, ctx())).toBe(false);
    expect(spy.calls).toEqual([]);
    expect(table.snapshotCalls).toBe(0);
    expect(hashTree(home)).toEqual(before);
  });

  it('property: no string that is not a plausible Hermes id reaches the filesystem', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (bad) => {
        fc.pre(!isPlausibleId('hermes', bad));
        const spy = new SpyFileSystem();
        const h = new HermesAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }]), spy.port));
        expect([strs(await h.purgeArtifacts(bad, ctx())), strs(await h.residualArtifacts(bad, ctx())), await h.hasArtifacts(bad, ctx())]).toEqual([[], [], false]);
        expect(spy.calls).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('an upper-case uuid is the live lower-case conversation', async () => {
    const id = freshId();
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 1)]);
    const h = hermes(new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 9, ppid: 1, argv: ['hermes', '--resume', id] }]));
    expect(await h.conversationInUse(id.toUpperCase(), ctx())).toBe(true);
    expect(strs(await h.residualArtifacts(id.toUpperCase(), ctx()))).toHaveLength(2);
  });

  it('a root that is itself a link is fine', async () => {
    const id = freshId();
    const real = join(dir, 'real-hermes');
    writeHermesDb(join(real, 'state.db'), [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 1)]);
    symlinkSync(real, join(home, '.hermes'));
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toHaveLength(2);
    expect(await hermes().hasArtifacts(id, ctx())).toBe(false);
  });

  it('a state.db that is a link is not written through: rows stay residual, hasArtifacts stays true', async () => {
    const id = freshId();
    const outside = join(dir, 'outside.db');
    writeHermesDb(outside, [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 1)]);
    mkdirSync(join(home, '.hermes'), { recursive: true });
    symlinkSync(outside, db);
    const before = hashTree(dir);
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(hashTree(dir)).toEqual(before);
    // The two rows stay, and the residual says why (dbWriteRefusal: a link is never written through).
    const residual = strs(await hermes().residualArtifacts(id, ctx()));
    expect(residual).toHaveLength(3);
    expect(residual[2]).toContain('is a symbolic link');
    expect(await hermes().hasArtifacts(id, ctx())).toBe(true);
  });

  it('HERMES_HOME from the context decides where rows are deleted', async () => {
    const id = freshId();
    const alt = join(dir, 'alt');
    writeHermesDb(join(alt, 'state.db'), [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 1)]);
    expect(strs(await hermes().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(strs(await hermes().purgeArtifacts(id, { ...ctx(), env: { HERMES_HOME: alt } }))).toHaveLength(2);
  });
});

describe('hermes in use', () => {
  it('a process naming the id, or the caller\'s HERMES_SESSION_ID; never a holder of the shared database (every Hermes process holds it)', async () => {
    const id = freshId();
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 1)]);
    const init = { pid: 1, argv: ['init'] };
    expect(await hermes(new FakeProcessTable([init])).conversationInUse(id, ctx())).toBe(false);
    expect(await hermes(new FakeProcessTable([init, { pid: 5, ppid: 1, argv: ['hermes', '--resume', id] }])).conversationInUse(id, ctx())).toBe(true);
    expect(await hermes(new FakeProcessTable([init], { self: { pid: 7, argv: ['node'], env: { HERMES_SESSION_ID: id } } })).conversationInUse(id, ctx())).toBe(true);
    for (const suffix of ['', '-wal', '-shm']) {
      const t = new FakeProcessTable([init, { pid: 6, ppid: 1, argv: ['hermes'], openFiles: [db + suffix] }]);
      expect(await hermes(t).inUseHolders(id, ctx())).toEqual([]);
      expect(t.holdersCalls).toBe(0);
    }
  });

  it('a `--resume` naming a uuid id in capitals or mixed case is one command-line holder (the common check\'s), not also a prefix one', async () => {
    const id = freshId();
    writeHermesDb(db, [...HERMES_SCHEMA, ...sessionSql(id, ws, 1, 1)]);
    const init = { pid: 1, argv: ['init'] };
    for (const spelled of [id, id.toUpperCase(), `${id.slice(0, 8).toUpperCase()}${id.slice(8)}`]) {
      const t = new FakeProcessTable([init, { pid: 5, ppid: 1, argv: ['hermes', '--resume', spelled] }]);
      expect((await hermes(t).inUseHolders(id, ctx())).map((h) => [h.pid, h.signal]), spelled).toEqual([[5, 'command-line']]);
    }
  });

  it('hints name ps for the id and for resumed Hermes processes (a holder of the shared database says nothing)', () => {
    const id = freshId();
    expect(hermes().inUseHints(id, ctx())).toEqual([`ps -axww | grep ${id}`, `ps -axww | grep -e 'hermes.*--resume' -e 'HERMES_SESSION_ID'  # ${db} is held by every Hermes process`]);
  });

  it.each(['; rm -rf ~', '$(reboot)', '../x'])('no hint carries the implausible id %j into a shell command', (bad) => {
    expect(hermes().inUseHints(bad, ctx())).toEqual([]);
  });
});

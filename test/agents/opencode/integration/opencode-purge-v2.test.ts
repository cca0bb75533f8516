// Purging 2.x (`session_v2`) and migrated databases through a fake `opencode` executable: `session delete` removes the
// session and its child sessions from the 2.x tables, the adapter cleans their 1.x rows; a failed delete removes nothing
// and the residual names what stays; an unknown layout is refused with a reason.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { dumpRows, sesId, UNKNOWN_SCHEMA, v1Schema, v1SessionSql, V2_SCHEMA, v2SessionSql, writeDb } from '../../../helpers/adapter-opencode-db.js';
import { type FakeOpencodeOptions, installFakeOpencode } from '../../../helpers/adapter-opencode-fake-cli.js';
import { strs } from '../../../helpers/artifact-strings.js';

const adapter = new OpencodeAdapter(nodePorts());
let root: string;
let n = 0;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-v2-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const PARENT = sesId(10);
const CHILD = sesId(11);
const GRANDCHILD = sesId(12);
const OTHER = sesId(13);
const T = 1_796_000_000_000;

interface Home {
  ctx: HomeDiscoveryContext;
  db: string;
  spy: string;
  calls(): string[][];
}

function home(sql: string[], cli: Omit<FakeOpencodeOptions, 'spyLog'> | null = {}): Home {
  const base = join(root, `h${n++}`);
  const h = join(base, 'home');
  const ws = join(base, 'ws');
  const data = join(h, '.local/share/opencode');
  mkdirSync(data, { recursive: true });
  mkdirSync(ws);
  const bin = join(base, 'bin');
  mkdirSync(bin);
  const spy = join(base, 'spy.log');
  if (cli !== null) installFakeOpencode(bin, { ...cli, spyLog: spy });
  const db = join(data, 'opencode.db');
  writeDb(db, sql.map((s) => s.replaceAll('$WS', ws)));
  return {
    ctx: { workspace: ws, home: h, env: { HOME: h, PATH: bin } },
    db,
    spy,
    calls: () => (existsSync(spy) ? readFileSync(spy, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]) : []),
  };
}

const tree = (v2: boolean, v1: boolean): string[] => {
  const specs = [
    { id: PARENT, directory: '$WS', created: T },
    { id: CHILD, directory: '$WS', created: T + 10, parent: PARENT },
    { id: GRANDCHILD, directory: '$WS', created: T + 20, parent: CHILD },
    { id: OTHER, directory: '$WS', created: T + 30 },
  ];
  return [...(v2 ? [...V2_SCHEMA, ...specs.flatMap(v2SessionSql)] : []), ...(v1 ? [...v1Schema(), ...specs.flatMap(v1SessionSql)] : [])];
};

describe('2.x session_v2', () => {
  it('discover and capture prefer the parent over a newer child session', async () => {
    const h = home(tree(true, false));
    expect(await adapter.discover(h.ctx)).toEqual([OTHER, PARENT]);
    expect(await adapter.verifyArtifact(CHILD, h.ctx)).toBe(false);
    const row = { name: 'oc', status: 'running' as const, agent: 'opencode' as const };
    expect(await adapter.captureActiveSessionId(row, { ...h.ctx, epoch: (T + 5) / 1000, siblingClaimedIds: [] })).toEqual({ kind: 'captured', id: OTHER });
    expect(await adapter.captureActiveSessionId(row, { ...h.ctx, epoch: (T - 5) / 1000, siblingClaimedIds: [OTHER] })).toEqual({ kind: 'captured', id: PARENT });
  });

  it('purge runs `opencode session delete <id> --standalone`; the session and its children are gone', async () => {
    const h = home(tree(true, false));
    const others = dumpRows(h.db, [PARENT, CHILD, GRANDCHILD]);
    const purged = strs(await adapter.purgeArtifacts(PARENT, h.ctx));
    expect(h.calls()).toContainEqual(['session', 'delete', PARENT, '--standalone']);
    expect(purged).toContain(`${h.db} (session_v2.id: 1 rows)`);
    expect(dumpRows(h.db)).toEqual(others);
    expect(strs(await adapter.residualArtifacts(PARENT, h.ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(PARENT, h.ctx)).toBe(false);
  });

  it('a failed delete removes nothing; the residual reports the session_v2 row and the children on record', async () => {
    const h = home(tree(true, true), { deleteExit: 3 });
    const all = dumpRows(h.db);
    const legacyFile = join(h.db, '..', 'storage', 'todo', `${PARENT}.json`);
    mkdirSync(join(legacyFile, '..'), { recursive: true });
    writeFileSync(legacyFile, '[]');
    expect(strs(await adapter.purgeArtifacts(PARENT, h.ctx))).toEqual([]);
    expect(existsSync(legacyFile)).toBe(true);
    expect(h.calls()).toContainEqual(['session', 'delete', PARENT, '--standalone']);
    expect(dumpRows(h.db)).toEqual(all);
    const residual = strs(await adapter.residualArtifacts(PARENT, h.ctx));
    expect(residual).toContain(`${h.db} (session_v2.id: 1 rows)`);
    expect(residual).toContain(`${h.db} (session_v2.parent_id: 1 rows)`);
    expect(residual).toContain(`${h.db} (session_v2.id: 1 rows) [child ${GRANDCHILD}]`);
    expect(await adapter.hasArtifacts(PARENT, h.ctx)).toBe(true);
  });

  it('a delete that exits 0 but leaves the session on record counts as failed', async () => {
    const h = home(tree(true, true), { deleteNoop: true });
    const all = dumpRows(h.db);
    expect(strs(await adapter.purgeArtifacts(PARENT, h.ctx))).toEqual([]);
    expect(dumpRows(h.db)).toEqual(all);
    expect(strs(await adapter.residualArtifacts(PARENT, h.ctx))).toContain(`${h.db} (session_v2.id: 1 rows)`);
  });

  it('without an opencode executable a session_v2 session is not purged, and the residual says so', async () => {
    const h = home(tree(true, false), null);
    expect(strs(await adapter.purgeArtifacts(PARENT, h.ctx))).toEqual([]);
    expect(strs(await adapter.residualArtifacts(PARENT, h.ctx))).toContain(`${h.db} (session_v2.id: 1 rows)`);
  });
});

describe('a migrated database (2.x tables beside the kept 1.x tables)', () => {
  it('purge deletes the children (any depth, collected before the delete) from the 1.x tables too', async () => {
    const h = home(tree(true, true));
    const others = dumpRows(h.db, [PARENT, CHILD, GRANDCHILD]);
    const purged = strs(await adapter.purgeArtifacts(PARENT, h.ctx));
    expect(purged).toContain(`${h.db} (session.id: 3 rows)`);
    expect(purged).toContain(`${h.db} (message.session_id: 3 rows)`);
    expect(dumpRows(h.db)).toEqual(others);
    expect(strs(await adapter.residualArtifacts(PARENT, h.ctx))).toEqual([]);
    expect(await adapter.discover(h.ctx)).toEqual([OTHER]);
  });
});

describe('a 1.x-only database', () => {
  it('purge deletes the rows itself (no CLI run) with its child sessions', async () => {
    const h = home(tree(false, true));
    const others = dumpRows(h.db, [PARENT, CHILD, GRANDCHILD]);
    const purged = strs(await adapter.purgeArtifacts(PARENT, h.ctx));
    expect(h.calls().filter((c) => c[0] === 'session')).toEqual([]);
    expect([...purged].sort()).toEqual(
      ['event.aggregate_id', 'event_sequence.aggregate_id', 'message.session_id', 'part.session_id', 'session.id', 'session_context_epoch.session_id', 'session_input.session_id', 'session_message.session_id', 'session_share.session_id', 'todo.session_id'].map((k) => `${h.db} (${k}: 3 rows)`).sort(),
    );
    expect(dumpRows(h.db)).toEqual(others);
    expect(strs(await adapter.residualArtifacts(PARENT, h.ctx))).toEqual([]);
  });

  it('ids are case-sensitive: purging one of two ids that differ only in case leaves the other whole', async () => {
    const lower = 'ses_dd6159fa8ffenly5gqcbdiunlx';
    const mixed = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
    const h = home([...v1Schema(), ...v1SessionSql({ id: lower, directory: '$WS', created: T }), ...v1SessionSql({ id: mixed, directory: '$WS', created: T + 1 })]);
    const others = dumpRows(h.db, [lower]);
    expect(strs(await adapter.purgeArtifacts(lower, h.ctx))).toContain(`${h.db} (session.id: 1 rows)`);
    expect(dumpRows(h.db)).toEqual(others);
    expect(await adapter.discover(h.ctx)).toEqual([mixed]);
    expect(strs(await adapter.residualArtifacts(mixed, h.ctx))).toContain(`${h.db} (session.id: 1 rows)`);
  });

  it('purging a child leaves its parent and siblings alone', async () => {
    const h = home(tree(false, true));
    const others = dumpRows(h.db, [CHILD, GRANDCHILD]);
    strs(await adapter.purgeArtifacts(CHILD, h.ctx));
    expect(dumpRows(h.db)).toEqual(others);
    expect(await adapter.discover(h.ctx)).toEqual([OTHER, PARENT]);
  });
});

describe('fail closed on an unknown layout', () => {
  const sql = [...UNKNOWN_SCHEMA, `INSERT INTO conversations VALUES ('${PARENT}', '$WS', ${T})`];

  it('discover finds nothing; purge refuses and removes nothing (legacy files included); the residual names the refusal', async () => {
    const h = home(sql);
    const legacyFile = join(h.db, '..', 'storage', 'todo', `${PARENT}.json`);
    mkdirSync(join(legacyFile, '..'), { recursive: true });
    writeFileSync(legacyFile, '[]');
    const all = dumpRows(h.db);
    expect(await adapter.discover(h.ctx)).toEqual([]);
    expect(await adapter.verifyArtifact(PARENT, h.ctx)).toBe(false);
    expect(strs(await adapter.purgeArtifacts(PARENT, h.ctx))).toEqual([]);
    expect(dumpRows(h.db)).toEqual(all);
    expect(h.calls().filter((c) => c[0] === 'session')).toEqual([]);
    expect(existsSync(legacyFile)).toBe(true);
    expect(strs(await adapter.residualArtifacts(PARENT, h.ctx))).toEqual([legacyFile, `${h.db} (conversations.id: 1 rows)`, `${h.db} (unknown layout: refusing to purge)`]);
    expect(await adapter.hasArtifacts(PARENT, h.ctx)).toBe(true);
  });

  it('an id the unknown database does not name has no artifacts', async () => {
    const h = home(sql);
    expect(await adapter.hasArtifacts(OTHER, h.ctx)).toBe(false);
  });

  it('a file that is not a database: nothing discovered, the residual says it is unreadable, nothing removed', async () => {
    const h = home([]);
    rmSync(h.db);
    mkdirSync(join(h.db, '..'), { recursive: true });
    writeFileSync(h.db, 'not a database at all, just text that is long enough to not be empty');
    expect(await adapter.discover(h.ctx)).toEqual([]);
    expect(strs(await adapter.purgeArtifacts(PARENT, h.ctx))).toEqual([]);
    expect((strs(await adapter.residualArtifacts(PARENT, h.ctx)))[0]).toMatch(/\(unreadable: /);
  });
});

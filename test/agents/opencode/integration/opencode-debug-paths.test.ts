// The database path from a REAL (fake) `opencode debug paths` run: a db outside the data dir is read, one run serves
// many queries, a failing run is retried, and XDG_DATA_HOME moves the data dir (and the default db) with it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { sesId, v1Schema, v1SessionSql, writeDb } from '../../../helpers/adapter-opencode-db.js';
import { installFakeOpencode } from '../../../helpers/adapter-opencode-fake-cli.js';
import { strs } from '../../../helpers/artifact-strings.js';

let root: string;
let n = 0;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-dbg-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = sesId(3);
const runs = (spy: string): number => (existsSync(spy) ? readFileSync(spy, 'utf8').trim().split('\n').filter((l) => l.includes('debug')).length : 0);

function place(db: string, ws: string): void {
  mkdirSync(join(db, '..'), { recursive: true });
  writeDb(db, [...v1Schema(), ...v1SessionSql({ id: ID, directory: ws, created: 1 })]);
}

// A home whose fake `opencode debug paths` names a database outside the data dir, holding session ID of a workspace.
function namedElsewhere(): { db: string; spy: string; ctx: { workspace: string; home: string; env: Record<string, string> }; a: OpencodeAdapter } {
  const base = join(root, `c${n++}`);
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  mkdirSync(home); // adapters refuse a home that does not exist
  const db = join(base, 'elsewhere', 'oc.db');
  place(db, ws);
  const spy = join(base, 'spy.log');
  installFakeOpencode(join(base, 'bin'), { spyLog: spy, db });
  return { db, spy, ctx: { workspace: ws, home, env: { HOME: home, PATH: join(base, 'bin') } }, a: new OpencodeAdapter(nodePorts()) };
}

describe('opencode debug paths', () => {
  it('names a database outside the data dir; one run serves every query of the adapter', async () => {
    const { db, spy, ctx, a } = namedElsewhere();
    expect(await a.discover(ctx)).toEqual([ID]);
    expect(await a.verifyArtifact(ID, ctx)).toBe(true);
    expect(strs(await a.residualArtifacts(ID, ctx))).toContain(`${db} (session.id: 1 rows)`);
    expect(runs(spy)).toBe(1);
  });

  it('owns answers as hasArtifacts when debug paths names another database than the default one it reads meanwhile', async () => {
    const base = join(root, `c${n++}`);
    const ws = join(base, 'ws');
    mkdirSync(ws, { recursive: true });
    const cases: Array<{ home: string; named: string; defaultHas: boolean; namedHas: boolean }> = [
      { home: join(base, 'h1'), named: join(base, 'elsewhere1', 'oc.db'), defaultHas: true, namedHas: false },
      { home: join(base, 'h2'), named: join(base, 'elsewhere2', 'oc.db'), defaultHas: false, namedHas: true },
      { home: join(base, 'h3'), named: join(base, 'elsewhere3', 'oc.db'), defaultHas: false, namedHas: false },
    ];
    for (const [i, c] of cases.entries()) {
      mkdirSync(c.home, { recursive: true });
      const dflt = join(c.home, '.local/share/opencode/opencode.db');
      for (const [db, has] of [[dflt, c.defaultHas], [c.named, c.namedHas]] as const) {
        mkdirSync(join(db, '..'), { recursive: true });
        if (has) place(db, ws);
        else writeDb(db, v1Schema());
      }
      installFakeOpencode(join(base, `bin${i}`), { db: c.named, spyLog: join(base, `spy${i}.log`) });
      const ctx = { workspace: ws, home: c.home, env: { HOME: c.home, PATH: join(base, `bin${i}`) } };
      const want = await new OpencodeAdapter(nodePorts()).hasArtifacts(ID, ctx);
      expect(await new OpencodeAdapter(nodePorts()).owns(ID, ctx), JSON.stringify(c)).toBe(want);
      if (c.namedHas) expect(want).toBe(true);
      if (!c.defaultHas && !c.namedHas) expect(want).toBe(false);
    }
  });

  it('a failing run is not remembered: the default db is read, and the next query asks again', async () => {
    const base = join(root, `c${n++}`);
    const home = join(base, 'home');
    const ws = join(base, 'ws');
    mkdirSync(ws, { recursive: true });
    place(join(home, '.local/share/opencode/opencode.db'), ws);
    const spy = join(base, 'spy.log');
    installFakeOpencode(join(base, 'bin'), { spyLog: spy, debugPathsExit: 2 });
    const ctx = { workspace: ws, home: home, env: { HOME: home, PATH: join(base, 'bin') } };
    const a = new OpencodeAdapter(nodePorts());
    expect(await a.discover(ctx)).toEqual([ID]);
    expect(await a.discover(ctx)).toEqual([ID]);
    expect(runs(spy)).toBe(2);
  });

  it('survey and inspect read the database debug paths named once a call asked it (they run nothing themselves)', async () => {
    const { spy, ctx, a } = namedElsewhere();
    expect(await a.survey(ctx)).toMatchObject({ store: 'missing' });
    expect(runs(spy)).toBe(0);
    expect(await a.discover(ctx)).toEqual([ID]);
    expect(await a.survey(ctx)).toMatchObject({ store: 'ok', counts: { 'session rows': 1 } });
    expect(await a.inspect(ctx)).toMatchObject({ presence: 'present', known: true, counts: { 'session rows': 1 } });
    expect(runs(spy)).toBe(1);
  });

  it('XDG_DATA_HOME in the agent env moves the data dir; the run sees it', async () => {
    const base = join(root, `c${n++}`);
    const home = join(base, 'home');
    const ws = join(base, 'ws');
    const xdg = join(base, 'xdg');
    mkdirSync(ws, { recursive: true });
    mkdirSync(home); // adapters refuse a home that does not exist
    place(join(xdg, 'opencode', 'opencode.db'), ws);
    const spy = join(base, 'spy.log');
    installFakeOpencode(join(base, 'bin'), { spyLog: spy, db: null });
    const a = new OpencodeAdapter(nodePorts());
    expect(await a.discover({ workspace: ws, home: home, env: { HOME: home, XDG_DATA_HOME: xdg, PATH: join(base, 'bin') } })).toEqual([ID]);
    expect(await a.discover({ workspace: ws, home: home, env: { HOME: home, PATH: join(base, 'bin') } })).toEqual([]);
  });
});

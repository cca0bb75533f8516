// OpenCode remembers its database's layout under the lstats of opencode.db and its sidecars once settled by the ports'
// clock: a settled, unchanged database answers from the remembered layout, and another file put in its place (another
// layout, aged to look settled) is read with its own — the remembered layout never answers for another file.
import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { sesId, v1Schema, v1SessionSql, V2_SCHEMA, v2SessionSql } from '../../../helpers/adapter-opencode-db.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});
const A = sesId(30);
const T = 1_796_000_000_000;

function makeDb(path: string, sql: readonly string[]): void {
  const db = new Database(path);
  for (const s of ['PRAGMA foreign_keys = OFF', ...sql]) db.exec(s);
  db.close();
  const t = Math.floor(Date.now() / 1000) - 60;
  utimesSync(path, t, t);
}

describe('opencode layout memory', () => {
  it('a settled database keeps its layout; another layout put in its place is read with its own', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-layout-')));
    roots.push(root);
    const home = join(root, 'home');
    const ws = join(root, 'ws');
    const dataDir = join(home, '.local/share/opencode');
    mkdirSync(dataDir, { recursive: true });
    mkdirSync(ws);
    mkdirSync(join(root, 'bin'));
    const dbPath = join(dataDir, 'opencode.db');
    makeDb(dbPath, [...v1Schema(), ...v1SessionSql({ id: A, directory: ws, created: T })]);
    const oc = new OpencodeAdapter(nodePorts());
    const ctx = { workspace: ws, home, env: { HOME: home, PATH: join(root, 'bin') } };
    expect(await oc.verifyArtifact(A, ctx)).toBe(true);
    expect(await oc.verifyArtifact(A, ctx)).toBe(true);
    // The v2 layout only (no `session` table): read with the remembered v1 layout the session would not be found.
    const other = join(root, 'other.db');
    makeDb(other, [...V2_SCHEMA, ...v2SessionSql({ id: A, directory: ws, created: T })]);
    renameSync(other, dbPath);
    expect(await oc.verifyArtifact(A, ctx)).toBe(true);
    expect(await oc.discover(ctx)).toEqual([A]);
  });
});

// Recreates the state the real Codex left after SIGTERM/SIGKILL: every database's rows only in -wal (the main file schema
// only), by replaying a materialised stage's databases through a REAL writer process that is then killed.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { quoteIdent, tableNames, withReadonlyDb } from '../../src/sqlite/index.js';
import type { RealStage } from './real-stage.js';
import { buildWalState, type WalFixture, type WalFixtureState } from './sqlite-wal-states.js';

const fs = new NodeFileSystem();

/** Statements that rebuild the database at `copy` (tables, rows, then indexes) in a fresh file. */
export async function rebuildSql(copy: string): Promise<string[]> {
  const schema = await withReadonlyDb(copy, { fs }, ({ db }) => ({
    tables: tableNames(db),
    create: db.prepare("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid").pluck().all() as string[],
    rest: db.prepare("SELECT sql FROM sqlite_schema WHERE type IN ('index', 'trigger', 'view') AND sql IS NOT NULL ORDER BY rowid").pluck().all() as string[],
  }));
  return [
    'PRAGMA foreign_keys = OFF',
    `ATTACH DATABASE '${copy.replaceAll("'", "''")}' AS src`,
    ...schema.create,
    ...schema.tables.map((t) => `INSERT INTO main.${quoteIdent(t)} SELECT * FROM src.${quoteIdent(t)}`),
    ...schema.rest,
    'DETACH DATABASE src',
  ];
}

/** Puts every database of a materialised stage into `state` (default: leftover, the crash state); stop() the writers after. */
export async function walStage(s: RealStage, scratch: string, state: WalFixtureState = 'leftover'): Promise<WalFixture[]> {
  mkdirSync(scratch, { recursive: true });
  const out: WalFixture[] = [];
  for (const { db } of s.expected.sqlite) {
    const path = s.abs(db);
    const copy = join(scratch, db.replaceAll('/', '_'));
    copyFileSync(path, copy);
    rmSync(path);
    out.push(await buildWalState(state, path, await rebuildSql(copy)));
  }
  return out;
}

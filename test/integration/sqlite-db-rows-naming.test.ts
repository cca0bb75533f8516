import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { dbRowsNaming } from '../../src/sqlite/index.js';
import { buildWalState, snapshotDir } from '../helpers/sqlite-wal-states.js';
import { strs } from '../helpers/artifact-strings.js';

const fs = new NodeFileSystem();
const ID = 'ses_dd60eb913ffet4MKQWcgE6E3Sy';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mam-sqlite-naming-'));
  dirs.push(dir);
  return dir;
}

describe('dbRowsNaming', () => {
  it('names id tables first (in the order given), then every table with a named column, skipping zero counts', async () => {
    const db = join(tempDir(), 'opencode.db');
    await buildWalState('leftover', db, [
      'CREATE TABLE session (id TEXT, parent_id TEXT)',
      'CREATE TABLE Message (ID TEXT, Session_ID TEXT)',
      'CREATE TABLE part (id TEXT, session_id TEXT)',
      'CREATE TABLE event_sequence (aggregate_id TEXT)',
      'CREATE TABLE todo (session_id TEXT)',
      `INSERT INTO session VALUES ('${ID}', NULL), ('other', '${ID}')`,
      `INSERT INTO Message VALUES ('m1', '${ID}'), ('m2', '${ID}'), ('m3', 'other')`,
      `INSERT INTO part VALUES ('${ID}', 'x')`,
      `INSERT INTO event_sequence VALUES ('${ID}')`,
      `INSERT INTO todo VALUES ('${ID.toUpperCase()}')`,
    ]);
    const got = strs(await dbRowsNaming(db, ID, ['session_id', 'aggregate_id', 'parent_id'], ['session', { table: 'PART', column: 'Id' }], { fs }));
    expect(got).toEqual([
      `${db} (session.id: 1 rows)`,
      `${db} (part.id: 1 rows)`,
      `${db} (Message.Session_ID: 2 rows)`,
      `${db} (event_sequence.aggregate_id: 1 rows)`,
      `${db} (session.parent_id: 1 rows)`,
    ]);
  });

  it('handles table and column names that need quoting', async () => {
    const db = join(tempDir(), 'x.db');
    await buildWalState('walonly', db, ['CREATE TABLE "we""ird; tab" ("thread""id" TEXT)', `INSERT INTO "we""ird; tab" VALUES ('${ID}')`]);
    expect(strs(await dbRowsNaming(db, ID, ['thread"id'], [], { fs }))).toEqual([`${db} (we"ird; tab.thread"id: 1 rows)`]);
  });

  it('answers [] for a missing file, a missing directory, or a path through a file, and creates nothing', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'plain'), 'x');
    for (const p of [join(dir, 'missing.db'), join(dir, 'no', 'such', 'x.db'), join(dir, 'plain', 'x.db')]) {
      expect(strs(await dbRowsNaming(p, ID, ['session_id'], ['session'], { fs }))).toEqual([]);
    }
    expect(snapshotDir(dir).map((l) => l.split(' ')[0])).toEqual(['plain']);
  });

  it('reports an unreadable database as one entry saying so, and never throws', async () => {
    const dir = tempDir();
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'not a database at all '.repeat(50));
    mkdirSync(join(dir, 'dir.db'));
    const before = snapshotDir(dir);
    const [one, ...rest] = strs(await dbRowsNaming(garbage, ID, ['session_id'], ['session'], { fs }));
    expect(rest).toEqual([]);
    expect(one).toMatch(new RegExp(`^${garbage.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(unreadable: .*not a database.*\\)$`));
    expect(strs(await dbRowsNaming(join(dir, 'dir.db'), ID, [], ['session'], { fs }))).toEqual([expect.stringMatching(/ \(unreadable: /)]);
    expect(snapshotDir(dir)).toEqual(before);
  });
});

// Discovery's query (`workspaceSessions`) against a plain reading of its rule, on random databases of the real 1.x
// schema, the v2 one and a migrated one with both: the top-level rows (no parent, or an empty one) of the given
// directories, created at or after `since` when given, newest first (a time in seconds read as milliseconds), then by
// id; a row whose id is not an OpenCode id is left out; an id in both tables counts once, with its later time.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { detectOpencodeLayout } from '../../../src/agents/opencode/opencode-layout.js';
import { workspaceSessions } from '../../../src/agents/opencode/opencode-sessions.js';
import { sesId, v1Schema, V2_SCHEMA } from '../../helpers/adapter-opencode-db.js';

const dir = mkdtempSync(join(tmpdir(), 'mam-oc-top-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Schema = 'v1' | 'v2' | 'both';
// One empty database per schema, copied for each case (a table that exists is a table the layout reads).
const templates = new Map<Schema, string>();
for (const [which, sql] of [['v1', v1Schema()], ['v2', V2_SCHEMA], ['both', [...v1Schema(), ...V2_SCHEMA]]] as const) {
  const path = join(dir, `template-${which}.db`);
  const w = new Database(path);
  for (const s of sql) w.exec(s);
  w.close();
  templates.set(which, path);
}

interface Row {
  id: string;
  parent: string | null;
  dir: string;
  time: number;
}

const DIRS = ['/w/a', '/w/b', '/w/c'];
const rowArb = fc.record({
  id: fc.oneof(fc.integer({ min: 0, max: 20 }).map((k) => sesId(k)), fc.constantFrom('not-an-id', 'SES_X', '')),
  parent: fc.constantFrom(null, '', sesId(99)),
  dir: fc.constantFrom(...DIRS),
  // Seconds (as OpenCode 0.x wrote) and milliseconds, some equal once read as milliseconds.
  time: fc.constantFrom(1_700_000_000, 1_700_000_001, 1_700_000_000_000, 1_700_000_000_500, 1_700_000_001_000),
});

let n = 0;
function db(which: Schema, v1: readonly Row[], v2: readonly Row[]): Database.Database {
  const path = join(dir, `db-${n++}.db`);
  copyFileSync(templates.get(which) as string, path);
  const w = new Database(path);
  w.pragma('foreign_keys = OFF');
  const i1 = which === 'v2' ? null : w.prepare("INSERT OR IGNORE INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 's', ?, 't', '1', ?, 1)");
  const i2 = which === 'v1' ? null : w.prepare("INSERT OR IGNORE INTO session_v2 (id, parent_id, directory, title, time_created, time_updated) VALUES (?, ?, ?, 't', ?, 1)");
  for (const r of v1) i1?.run(r.id, r.parent, r.dir, r.time);
  for (const r of v2) i2?.run(r.id, r.parent, r.dir, r.time);
  w.close();
  return new Database(path, { readonly: true });
}

const ms = (t: number): number => (t < 100_000_000_000 ? t * 1000 : t);

// The rule, read plainly: each table's rows as stored (the first of a repeated id, as the insert keeps it).
function expected(tables: ReadonlyArray<readonly Row[]>, dirs: readonly string[], since: number | undefined): string[] {
  const found = new Map<string, number>();
  for (const rows of tables) {
    const stored = new Map<string, Row>();
    for (const r of rows) if (!stored.has(r.id)) stored.set(r.id, r);
    for (const r of stored.values()) {
      if (!r.id.startsWith('ses_') || !dirs.includes(r.dir) || (r.parent !== null && r.parent !== '')) continue;
      if (since !== undefined && ms(r.time) < since) continue;
      found.set(r.id, Math.max(found.get(r.id) ?? -1, ms(r.time)));
    }
  }
  return [...found].sort(([ia, ta], [ib, tb]) => tb - ta || (ia < ib ? -1 : ia > ib ? 1 : 0)).map(([id]) => id);
}

describe('workspaceSessions', () => {
  it('gives the top-level sessions of the directories, newest first, on every schema', () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { maxLength: 12 }),
        fc.array(rowArb, { maxLength: 12 }),
        fc.constantFrom<Schema>('v1', 'v2', 'both'),
        fc.subarray(DIRS, { minLength: 1 }),
        fc.option(fc.constantFrom(1_700_000_000_000, 1_700_000_000_600), { nil: undefined }),
        (r1, r2, which, dirs, since) => {
          const v1 = which === 'v2' ? [] : r1;
          const v2 = which === 'v1' ? [] : r2;
          const d = db(which, v1, v2);
          try {
            const tables = which === 'v1' ? [v1] : which === 'v2' ? [v2] : [v1, v2];
            expect(workspaceSessions(d, detectOpencodeLayout(d), dirs, since)).toEqual(expected(tables, dirs, since));
          } finally {
            d.close();
          }
        },
      ),
      { numRuns: 80 },
    );
  });
});

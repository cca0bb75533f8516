// The batch lookup of session rows (one statement per table for many ids) gives exactly what one lookup per id gives:
// random databases of both schemas (a migrated one has both tables; child sessions, ids in one table only) and random
// id lists (duplicates, ids with no row, hostile text), and a spy shows it prepares one statement per table per connection.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { detectOpencodeLayout } from '../../../src/agents/opencode/opencode-layout.js';
import { sessionRows, sessionRowsOf } from '../../../src/agents/opencode/opencode-sessions.js';
import { sesId, v1Schema, V2_SCHEMA } from '../../helpers/adapter-opencode-db.js';

const dir = mkdtempSync(join(tmpdir(), 'mam-oc-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Both schemas, written once and copied for each database.
const template = join(dir, 'template.db');
{
  const w = new Database(template);
  for (const s of [...v1Schema(), ...V2_SCHEMA]) w.exec(s);
  w.close();
}
let n = 0;
function db(v1: ReadonlyArray<[number, number | null]>, v2: ReadonlyArray<[number, number | null]>): Database.Database {
  const path = join(dir, `db-${n++}.db`);
  copyFileSync(template, path);
  const w = new Database(path);
  w.pragma('foreign_keys = OFF');
  const i1 = w.prepare("INSERT OR IGNORE INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, 's', ?, 't', '1', 1, 1)");
  const i2 = w.prepare("INSERT OR IGNORE INTO session_v2 (id, parent_id, directory, title, time_created, time_updated) VALUES (?, ?, ?, 't', 1, 1)");
  for (const [k, p] of v1) i1.run(sesId(k), p === null ? null : sesId(p), `/w/${k % 3}`);
  for (const [k, p] of v2) i2.run(sesId(k), p === null ? null : sesId(p), `/v/${k % 2}/`);
  w.close();
  return new Database(path, { readonly: true });
}

const rowsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 12 }), fc.option(fc.integer({ min: 0, max: 12 }), { nil: null })), { maxLength: 10 });
const idArb = fc.oneof(fc.integer({ min: 0, max: 14 }).map((k) => sesId(k)), fc.constantFrom('', "ses_'; DROP TABLE session; --", '["x"]', 'ses_\0x', 'SES_X'));

describe('sessionRowsOf', () => {
  it('equals one sessionRows per id, on both schemas and a migrated database', () => {
    fc.assert(
      fc.property(rowsArb, rowsArb, fc.constantFrom('v1', 'v2', 'both'), fc.array(idArb, { maxLength: 8 }), (r1, r2, which, ids) => {
        const d = db(which === 'v2' ? [] : r1, which === 'v1' ? [] : r2);
        try {
          const layout = detectOpencodeLayout(d);
          const batch = sessionRowsOf(d, layout, ids);
          for (const id of ids) {
            const one = sessionRows(d, layout, id);
            const sort = (rows: readonly object[]): string[] => rows.map((r) => JSON.stringify(r)).sort();
            expect(sort(batch.get(id) ?? [])).toEqual(sort(one));
          }
          expect([...batch.keys()].every((k) => ids.includes(k))).toBe(true);
        } finally {
          d.close();
        }
      }),
      { numRuns: 50 },
    );
  });

  it('prepares one statement per table per connection, however many batches and ids', () => {
    const d = db([[1, null], [2, 1]], [[3, null]]);
    const layout = detectOpencodeLayout(d);
    const prepare = d.prepare.bind(d);
    let prepares = 0;
    d.prepare = ((sql: string) => ((prepares += 1), prepare(sql))) as typeof d.prepare;
    for (let i = 0; i < 5; i += 1) sessionRowsOf(d, layout, [sesId(1), sesId(2), sesId(3), sesId(9)]);
    expect(prepares).toBe(2);
    expect(sessionRowsOf(d, layout, [sesId(1), sesId(3)]).size).toBe(2);
    d.close();
  });
});

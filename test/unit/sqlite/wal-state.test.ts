import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isPortError } from '../../../src/errors.js';
import { detectWalState, type WalState } from '../../../src/sqlite/index.js';
import { RecordingFs } from '../../helpers/sqlite-recording-fs.js';

let dirs: string[] = [];
afterEach(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  dirs = [];
});

function layout(names: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'mam-walstate-'));
  dirs.push(dir);
  for (const n of names) writeFileSync(join(dir, n), '');
  return join(dir, 'x.db');
}

const CASES: Array<[string[], WalState]> = [
  [['x.db'], 'clean'],
  [['x.db', 'x.db-wal', 'x.db-shm'], 'leftover'],
  [['x.db', 'x.db-wal'], 'walonly'],
  [['x.db', 'x.db-shm'], 'shmonly'],
  [['x.db', 'x.db-journal'], 'journal'],
  [['x.db', 'x.db-journal', 'x.db-shm'], 'journal'],
  [['x.db', 'x.db-wal', 'x.db-shm', 'x.db-journal'], 'leftover'],
  [['x.db', 'x.db-wal', 'x.db-journal'], 'walonly'],
  // Sidecars of another database in the same directory do not count.
  [['x.db', 'y.db-wal', 'y.db-shm', 'x.dbwal'], 'clean'],
];

describe('detectWalState', () => {
  it.each(CASES)('%j is %s', async (names, state) => {
    const rec = new RecordingFs();
    expect(await detectWalState(rec.port, layout(names))).toBe(state);
    expect(rec.calls.every((c) => c.op === 'lstat')).toBe(true);
  });

  it('rejects with NotFound when the database itself is missing, even with sidecars beside it', async () => {
    const path = layout(['x.db-wal', 'x.db-shm']);
    const err: unknown = await detectWalState(new RecordingFs().port, path).catch((e: unknown) => e);
    expect(isPortError(err, 'NotFound')).toBe(true);
  });
});

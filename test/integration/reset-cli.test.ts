import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeRow, resetWorkspace, treeSnapshot, UA, writeRows } from '../helpers/reset-kit.js';
import { MAM_BIN } from '../helpers/mam-bin.js';

const ROOT = join(import.meta.dirname, '../..');
let w: Awaited<ReturnType<typeof resetWorkspace>>;
beforeEach(async () => {
  w = await resetWorkspace();
  await writeRows(w.ws, [makeRow('reviewer-claude-01', 'claude', w.ws, { ownId: UA })]);
});
afterEach(async () => {
  await w.dispose();
});

describe('mam reset (example CLI)', () => {
  it('exits 3 off a terminal without --yes, touching nothing; 2 on a usage error', async () => {
    const before = await treeSnapshot(join(w.ws, '.mam'));
    const r = spawnSync(process.execPath, [MAM_BIN, 'reset', '--workspace', w.ws], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(3);
    expect(r.stderr).toContain('not a terminal');
    expect(await treeSnapshot(join(w.ws, '.mam'))).toEqual(before);
    const u = spawnSync(process.execPath, [MAM_BIN, 'reset'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    expect(u.status).toBe(2);
  }, 30_000);
});

// Regression tests named after the symptoms of issue 31 ("a purge that removes nothing says it succeeded"): with a
// store's header damaged (its rows' bytes still in the file) or better-sqlite3's binding missing, neither the purge nor
// its dry run exits 0, the JSON carries the result's kind, and the cause is named (the binding case: how to fix it), in
// the result and in `mam doctor`.
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorCommand } from '../../src/cli/commands/doctor.js';
import { purgeCommand } from '../../src/cli/commands/purge.js';
import { inspectStores } from '../../src/inspect/inspect-stores.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { withSqliteLoader } from '../../src/sqlite/driver.js';
import { type FaultStage, buildFaultStage } from '../helpers/fault-stages.js';
import { faultLoader } from '../helpers/fault-matrix.js';
import { faultService } from '../helpers/fault-stages.js';

function capture(): { io: { stdout: (s: string) => void; stderr: (s: string) => void }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: (s) => (out += s), stderr: (s) => (err += s) }, out: () => out, err: () => err };
}

const missing = faultLoader('missing-binding');
if (missing === null) throw new Error('no missing-binding loader');

describe('honest purge outcomes (codex stage)', () => {
  let stage: FaultStage;
  beforeAll(async () => {
    stage = await buildFaultStage('codex');
  });
  afterAll(async () => {
    await stage.dispose();
  });

  it('an unreadable state_5.sqlite: the dry run no longer says "would remove 0" with exit 0, and the purge exits 6 with its kind in the JSON', async () => {
    stage.restore();
    const fd = openSync(join(stage.home, '.codex', 'state_5.sqlite'), 'r+');
    writeSync(fd, Buffer.alloc(16, 0x41), 0, 16, 0);
    closeSync(fd);
    const dry = capture();
    const dryExit = await purgeCommand(['codex', stage.id, '--home', stage.home, '--dry-run'], dry.io);
    expect(dryExit).toBe(6);
    expect(dry.out()).not.toContain('would remove 0 artifact(s)');
    expect(dry.out()).toContain('fault: unreadable-store');
    const run = capture();
    expect(await purgeCommand(['codex', stage.id, '--home', stage.home, '--json'], run.io)).toBe(6);
    const json = JSON.parse(run.out()) as { kind: string; faults: Array<{ cause: string }>; items: string[] };
    expect(json.kind).toBe('refused');
    expect(json.faults.map((f) => f.cause)).toContain('unreadable-store');
    // The rollout is still there, and said so.
    expect(json.items.some((i) => i.includes('rollout-'))).toBe(true);
  });

  it('better-sqlite3 binding missing: the purge is refused naming the binding and how to fix the install, not an exit-0 purge', async () => {
    stage.restore();
    const result = await withSqliteLoader(missing, () => faultService(stage, new NodeFileSystem()).purge('codex', stage.id, { home: stage.home, env: stage.env }));
    expect(result.kind).toBe('refused');
    if (result.kind !== 'refused') return;
    const fault = result.faults.find((f) => f.cause === 'missing-binding');
    expect(fault?.advice).toMatch(/rebuild|install scripts/);
  });

  it('better-sqlite3 binding missing: inspectStores types the fault and mam doctor prints how to fix it (exit 1)', async () => {
    stage.restore();
    const reports = await withSqliteLoader(missing, () => inspectStores({ home: stage.home, env: stage.env }));
    expect(reports.find((r) => r.agent === 'codex')?.faults?.map((f) => f.cause)).toContain('missing-binding');
    const c = capture();
    expect(await withSqliteLoader(missing, () => doctorCommand(['--home', stage.home], c.io))).toBe(1);
    expect(c.out()).toContain('missing-binding');
    expect(c.out()).toContain('npm rebuild better-sqlite3');
  });
});

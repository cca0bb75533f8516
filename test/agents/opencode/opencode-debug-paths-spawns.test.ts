// `opencode debug paths` runs once per (binary, HOME, XDG_DATA_HOME) for the life of the ports: whatever the number of
// adapters built on them, rows checked, or lookups in flight at once (regression: `mam status` of 5 opencode rows spawned
// it 5 times).
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adaptersOf } from '../../../src/agents/adapters-of.js';
import { getAdapter } from '../../../src/agents/get-adapter.js';
import { resumeStates } from '../../../src/inspect/resume-states.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { SessionRow } from '../../../src/registry/session-row.js';
import type { RunResult } from '../../../src/ports/process.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { sesId } from '../../helpers/adapter-opencode-db.js';

let root: string;
let bin: string;
let homes: string[];
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-spawns-')));
  bin = join(root, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'opencode'), '#!/bin/sh\n');
  chmodSync(join(bin, 'opencode'), 0o755);
  homes = ['a', 'b'].map((h) => join(root, h));
  for (const h of homes) mkdirSync(h);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ok: RunResult = { command: 'opencode debug paths', exitCode: 0, signal: null, stdout: 'data /x\n', stderr: '', durationMs: 1, timedOut: false, failed: false };

function counting(result: RunResult = ok): FakeProcessTable {
  return new FakeProcessTable([], { self: { pid: 100, argv: ['node'], env: { PATH: '' } }, onRun: () => result });
}

const portsWith = (proc: FakeProcessTable) => ({ fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new FakeClock() });

function row(n: number, id: string): SessionRow {
  return { name: `coder-opencode-${n}`, agent: 'opencode', status: 'running', role: 'coder', opencode_session_id_own: id } as unknown as SessionRow;
}

describe('opencode debug paths spawns', () => {
  it('is run once for five adapters built with getAdapter on the same ports', async () => {
    const proc = counting();
    const ports = portsWith(proc);
    for (let i = 0; i < 5; i += 1) await getAdapter('opencode', { ports }).verifyArtifact(sesId(1), { workspace: root, home: homes[0] as string, env: { PATH: bin } });
    expect(proc.runs).toHaveLength(1);
  });

  it('is run once for a status of five opencode rows, the lookups in flight at once', async () => {
    const proc = counting();
    const rows = [1, 2, 3, 4, 5].map((n) => row(n, sesId(n)));
    const states = await resumeStates(rows, { workspace: root, home: homes[0] as string, env: { PATH: bin }, ports: portsWith(proc) });
    expect(states).toEqual(['no', 'no', 'no', 'no', 'no']);
    expect(proc.runs).toHaveLength(1);
  });

  it('is run once per distinct (binary, HOME, XDG_DATA_HOME), whatever the number of rows', async () => {
    const proc = counting();
    const set = adaptersOf(portsWith(proc));
    const ctxs = [
      { home: homes[0] as string, env: { PATH: bin } },
      { home: homes[1] as string, env: { PATH: bin } },
      { home: homes[0] as string, env: { PATH: bin, XDG_DATA_HOME: join(root, 'xdg') } },
    ];
    await Promise.all(Array.from({ length: 30 }, (_, i) => set.get('opencode').verifyArtifact(sesId(1), { workspace: root, ...(ctxs[i % 3] as (typeof ctxs)[0]) })));
    expect(proc.runs).toHaveLength(3);
    expect(new Set(proc.runs.map((r) => `${r.opts.env?.['HOME']} ${r.opts.env?.['XDG_DATA_HOME'] ?? '-'}`)).size).toBe(3);
  });

  it('asks again after a failed run (concurrent lookups share the failed one)', async () => {
    const proc = counting({ ...ok, exitCode: 1, failed: true });
    const a = adaptersOf(portsWith(proc)).get('opencode');
    const ctx = { workspace: root, home: homes[0] as string, env: { PATH: bin } };
    await Promise.all([a.verifyArtifact(sesId(1), ctx), a.verifyArtifact(sesId(2), ctx)]);
    expect(proc.runs).toHaveLength(1);
    await a.verifyArtifact(sesId(1), ctx);
    expect(proc.runs).toHaveLength(2);
  });
});

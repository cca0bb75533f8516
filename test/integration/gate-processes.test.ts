// The id-order gate across real processes: real pids, the real process table (`/proc` or ps) and the cross-process lock.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdOrderGate } from '../../src/gate/id-order-gate.js';
import { idOrderPaths } from '../../src/gate/id-order-paths.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { tsChildArgs } from '../helpers/ts-child.js';

const CHILD = fileURLToPath(new URL('../helpers/lifecycle-gate-child.ts', import.meta.url));

function child(ws: string, session: string, holdMs: number, log: string): ChildProcess {
  return spawn(process.execPath, [...tsChildArgs(CHILD), ws, session, String(holdMs), log], { stdio: 'ignore' });
}

function exited(p: ChildProcess): Promise<number | null> {
  return new Promise((res) => (p.exitCode !== null || p.signalCode !== null ? res(p.exitCode) : p.once('exit', (code) => res(code))));
}

async function waitFor(what: () => boolean, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('id-order gate across real processes', () => {
  let ws: string;
  let dispose: () => Promise<void>;
  const kids: ChildProcess[] = [];
  beforeEach(async () => {
    ({ dir: ws, dispose } = await makeTempDir('mam-gate-proc-'));
  });
  afterEach(async () => {
    for (const k of kids.splice(0)) k.kill('SIGKILL');
    await dispose();
  });

  it('two processes creating in one cwd pass one at a time', async () => {
    const log = join(ws, 'log');
    const a = child(ws, 'a-agy', 400, log);
    const b = child(ws, 'b-agy', 400, log);
    kids.push(a, b);
    expect(await Promise.all([exited(a), exited(b)])).toEqual([0, 0]);
    const events = readFileSync(log, 'utf8').trim().split('\n').map((l) => l.split(' '));
    expect(events.map((e) => e[0])).toEqual(['enter', 'leave', 'enter', 'leave']);
    expect(events[0]?.[2]).toBe(events[1]?.[2]);
    expect(Number(events[2]?.[1])).toBeGreaterThanOrEqual(Number(events[1]?.[1]));
    expect((await readdir(idOrderPaths(ws, ws).dir)).filter((n) => n.endsWith('.json'))).toEqual([]);
  }, 30_000);

  it('a creator killed while holding the gate leaves a marker: kept while herdr lists its session, pruned once herdr says it is gone', async () => {
    const log = join(ws, 'log');
    const holder = child(ws, 'x-agy', -1, log);
    kids.push(holder);
    await waitFor(() => existsSync(log) && readFileSync(log, 'utf8').includes('enter'));
    holder.kill('SIGKILL');
    await exited(holder);
    const herdr = new FakeHerdr();
    herdr.addAgent({ name: 'x-agy', kind: 'agy', cwd: ws });
    const gate = new IdOrderGate(ws, { ports: { ...nodePorts(), herdr }, waitSeconds: 0.3, pollMs: 50 });
    const refused = await gate.enter({ session: 'y-agy', cwd: ws, herdrServer: 'default' });
    expect(refused.kind === 'refused' && refused.blockers.map((b) => b.state)).toEqual(['orphan-alive']);
    herdr.exitAgent('x-agy');
    const passed = await gate.enter({ session: 'y-agy', cwd: ws, herdrServer: 'default' });
    expect(passed.kind === 'passed' && passed.pruned.map((p) => [p.reason, p.marker.owner_pid])).toEqual([['gone', holder.pid]]);
    if (passed.kind === 'passed') await passed.ticket.release();
  }, 30_000);
});

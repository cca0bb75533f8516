// The loop guard across real processes: racing acquirers, and the reference tool's marker of a live process (its pid and
// `ps -o lstart=` in local time, as reset.sh writes it) against the real process table.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopGuard } from '../../src/loop/index.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { raceChildren } from '../helpers/autopin-spawn.js';

let dir: string;
let ws: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mam-loop-guard-'));
  ws = join(dir, 'ws');
  mkdirSync(join(ws, '.mam'), { recursive: true });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LoopGuard across processes', () => {
  it('four processes racing for the guard: exactly one holds it, the others are refused, and it is gone afterwards', async () => {
    const argv = ['guard', ws, '1500'];
    const answers = await raceChildren([argv, argv, argv, argv], join(dir, 'go-guard'), process.env);
    for (const a of answers) expect(a.code, a.stderr).toBe(0);
    const kinds = answers.map((a) => a.answer?.['kind']).sort();
    expect(kinds).toEqual(['acquired', 'refused', 'refused', 'refused']);
    expect(answers.find((a) => a.answer?.['kind'] === 'acquired')?.answer?.['released']).toBe(true);
    for (const a of answers.filter((x) => x.answer?.['kind'] === 'refused')) expect(String(a.answer?.['message'])).toMatch(/^Another multi-agent-mux-loop is already running \(pid \d+/);
    expect(existsSync(join(ws, '.mam', 'loop-guard-active'))).toBe(false);
  });

  it("the reference tool's marker of a live process refuses; once that process is gone it is stale and taken over", async () => {
    const holder = spawn('sleep', ['300'], { stdio: 'ignore' });
    try {
      const lstart = spawnSync('ps', ['-p', String(holder.pid), '-o', 'lstart='], { encoding: 'utf8' }).stdout.trim().split(/\s+/).join(' ');
      const marker = join(ws, '.mam', 'loop-guard-active');
      writeFileSync(marker, `pid=${holder.pid}\nlstart=${lstart}\nstarted=2026-10-29T00:00:00Z\n`);
      const guard = new LoopGuard(ws, { ports: nodePorts() });
      const refused = await guard.acquire();
      expect(refused).toMatchObject({ kind: 'refused', state: { kind: 'live' } });
      expect(refused.kind === 'refused' && refused.message).toContain(`Another multi-agent-mux-loop is already running (pid ${holder.pid}`);
      holder.kill('SIGKILL');
      await new Promise((r) => holder.once('exit', r));
      const got = await guard.acquire({ holder: 'test' });
      expect(got.kind).toBe('acquired');
      // Ours is readable by the reference tool: its lstart is exactly what `ps -o lstart=` prints for this process.
      const own = spawnSync('ps', ['-p', String(process.pid), '-o', 'lstart='], { encoding: 'utf8' }).stdout.trim().split(/\s+/).join(' ');
      expect(readFileSync(marker, 'utf8')).toContain(`pid=${process.pid}\nlstart=${own}\n`);
      if (got.kind === 'acquired') expect(await got.guard.release()).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopGuard, parsePidMarker } from '../../../src/loop/index.js';
import { type AutopinWorld, autopinWorld, SELF_PID } from '../../helpers/autopin-kit.js';

const START = Date.UTC(2026, 10, 30, 0, 30, 0);

describe('LoopGuard', () => {
  let w: AutopinWorld;
  let guard: LoopGuard;
  let path: string;
  beforeEach(async () => {
    w = await autopinWorld('guard');
    w.proc.add({ pid: 4300, argv: ['bash', 'reset.sh'], startedAtMs: START, startTicks: 777 });
    guard = new LoopGuard(w.ws, { ports: w.ports });
    path = join(w.ws, '.mam', 'loop-guard-active');
  });
  afterEach(async () => {
    await w.dispose();
  });

  it('takes an absent guard with pid, lstart, started (and start ticks, holder); releases only once', async () => {
    const got = await guard.acquire({ holder: 'loop' });
    expect(got.kind).toBe('acquired');
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(new RegExp(`^pid=${SELF_PID}\\nlstart=[A-Z][a-z]{2} [A-Z][a-z]{2} \\d{1,2} \\d\\d:\\d\\d:\\d\\d \\d{4}\\nstarted=2026-11-30T01:00:00.000Z\\nholder=loop\\n$`));
    expect(await guard.inspect()).toMatchObject({ kind: 'live', marker: { pid: SELF_PID, holder: 'loop' } });
    const again = await guard.acquire();
    expect(again).toMatchObject({ kind: 'refused', message: expect.stringContaining('Another multi-agent-mux-loop is already running') });
    if (got.kind !== 'acquired') return;
    expect(await got.guard.release()).toBe(true);
    expect(await guard.inspect()).toEqual({ kind: 'absent' });
    expect(await got.guard.release()).toBe(false);
  });

  it("a live holder refuses: the reference tool's marker (local or UTC lstart, any time zone) and ours", async () => {
    for (const lstart of ['Mon Nov 30 00:30:00 2026', 'Mon Nov 30 09:30:00 2026', 'Sun Nov 29 19:00:00 2026', 'Mon Nov 30 00:30:01 2026']) {
      const marker = `pid=4300\nlstart=${lstart}\nstarted=2026-11-30T00:30:00Z\n`;
      writeFileSync(path, marker);
      const got = await guard.acquire();
      expect(got, lstart).toMatchObject({ kind: 'refused', state: { kind: 'live', marker: { pid: 4300 } } });
      expect(got.kind === 'refused' && got.message).toBe('Another multi-agent-mux-loop is already running (pid 4300, since 2026-11-30T00:30:00Z)');
      expect(readFileSync(path, 'utf8')).toBe(marker);
    }
  });

  it('a stale marker does not block and is replaced: dead pid, another start, other start ticks, an old unreadable file', async () => {
    const stale = [
      'pid=999999\nlstart=Thu Jan 1 00:00:00 1970\n',
      'pid=4300\nlstart=Mon Nov 30 00:37:13 2026\n',
      'pid=4300\nlstart=Mon Nov 30 00:30:00 2026\nstart_ticks=778\n',
    ];
    for (const text of stale) {
      writeFileSync(path, text);
      expect((await guard.inspect()).kind, text).toBe('stale');
      const got = await guard.acquire();
      expect(got.kind, text).toBe('acquired');
      expect(parsePidMarker(readFileSync(path, 'utf8'))?.pid).toBe(SELF_PID);
      if (got.kind === 'acquired') await got.guard.release();
    }
    writeFileSync(path, 'garbage');
    expect(await guard.acquire()).toMatchObject({ kind: 'refused', state: { kind: 'unreadable' } });
    const old = (w.clock.now() - 60_000) / 1000;
    utimesSync(path, old, old);
    expect((await guard.acquire()).kind).toBe('acquired');
  });

  it('a live pid whose start cannot be told counts as live (never taken over on a guess)', async () => {
    writeFileSync(path, 'pid=4300\nstarted=x\n');
    expect(await guard.inspect()).toMatchObject({ kind: 'live', reason: expect.stringContaining('cannot be told') });
  });

  it('release leaves a marker that is no longer its own', async () => {
    const got = await guard.acquire();
    if (got.kind !== 'acquired') throw new Error('not acquired');
    writeFileSync(path, 'pid=4300\nlstart=Mon Nov 30 00:30:00 2026\n');
    expect(await got.guard.release()).toBe(false);
    expect(readFileSync(path, 'utf8')).toContain('pid=4300');
  });

  it('reads only a plausible pid from a marker', () => {
    for (const t of ['', 'pid=', 'pid=0', 'pid=-1', 'pid=abc', 'pid=1e3', 'pid=01', 'pid=99999999999', 'lstart=x']) expect(parsePidMarker(t), t).toBeNull();
    expect(parsePidMarker('junk\npid= 42 \nlstart=Mon Nov 30 00:30:00 2026\nstart_ticks=x\nextra=1')).toEqual({ pid: 42, lstart: 'Mon Nov 30 00:30:00 2026', started: null, startTicks: null, holder: null });
  });
});

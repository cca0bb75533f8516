import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { startSleeper, stopAll, type TestChild } from '../helpers/proc-children.js';

// The start ps reports must not move with the caller's zone: ps always runs under TZ=UTC0.
describe('ps start times ignore the time zone of the caller', () => {
  let child: TestChild;
  let startedBetween: [number, number];

  beforeAll(async () => {
    const before = Date.now();
    child = await startSleeper();
    startedBetween = [before, Date.now()];
  });
  afterAll(stopAll);

  it.each(['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC'])('TZ=%s in the port env gives the same start', async (tz) => {
    const port = new NodeProcessPort({ env: { ...process.env, TZ: tz }, useProc: false });
    const p = await port.lookup(child.pid);
    // lstart has whole seconds (truncated); allow for the clock tick it was taken at.
    expect(p?.startedAtMs).toBeGreaterThanOrEqual(Math.floor(startedBetween[0] / 1000) * 1000 - 2000);
    expect(p?.startedAtMs).toBeLessThanOrEqual(startedBetween[1] + 2000);
    const fromSnap = (await port.snapshot()).find((q) => q.pid === child.pid);
    expect(fromSnap?.startedAtMs).toBe(p?.startedAtMs);
  });

  it.runIf(existsSync('/proc/self/stat'))('and agrees with /proc to within a second', async () => {
    const viaPs = await new NodeProcessPort({ env: { ...process.env, TZ: 'Europe/Berlin' }, useProc: false }).lookup(child.pid);
    const viaProc = await new NodeProcessPort().lookup(child.pid);
    expect(Math.abs((viaPs?.startedAtMs ?? 0) - (viaProc?.startedAtMs ?? Number.NaN))).toBeLessThan(1000);
  });
});

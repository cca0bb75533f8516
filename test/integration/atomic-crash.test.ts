import * as nfs from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanStaleTemps } from '../../src/atomic/index.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { type Child, spawnHelper } from '../helpers/fs-child.js';
import { checkPayload } from '../helpers/fs-payload.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { byTier, SLOW_TIER, seededRandom } from '../helpers/tier.js';

const TEMP = /^\.target\.json\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.tmp$/;
const LANES = 2;
// npm test: 4 kills a lane; the slow tier (test/slow/atomic-crash.test.ts) 15.
const KILLS_PER_LANE = byTier(4, 15);
const { random, seedNote } = seededRandom(20261205);

describe('writeFileAtomic under SIGKILL', () => {
  const clock = new NodeClock();
  const fs = new NodeFileSystem();
  let dir: string;
  let dispose: () => Promise<void>;
  const children: Child[] = [];
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-crash-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await dispose();
  });

  // One lane: a writer killed at random instants, again and again, over the same target.
  async function lane(laneDir: string): Promise<{ kills: number; tempsSeen: number; seqs: Set<number> }> {
    await nfs.mkdir(laneDir);
    const target = join(laneDir, 'target.json');
    let tempsSeen = 0;
    const seqs = new Set<number>();
    for (let i = 0; i < KILLS_PER_LANE; i++) {
      const writer = spawnHelper('fs-atomic-writer.ts', [target]);
      children.push(writer);
      await writer.line('ready');
      await clock.sleep(random() * 60);
      writer.proc.kill('SIGKILL');
      expect((await writer.exit).signal, writer.stderr()).toBe('SIGKILL');
      const seq = checkPayload(await nfs.readFile(target, 'utf8'));
      expect(typeof seq, String(seq)).toBe('number');
      seqs.add(seq as number);
      const others = (await nfs.readdir(laneDir)).filter((n) => n !== 'target.json');
      expect(others.every((n) => TEMP.test(n)), others.join(',')).toBe(true);
      tempsSeen += others.length;
      const cleaned = await cleanStaleTemps(fs, laneDir, 'target.json');
      expect(cleaned.length).toBe(others.length);
      expect(await nfs.readdir(laneDir)).toEqual(['target.json']);
    }
    return { kills: KILLS_PER_LANE, tempsSeen, seqs };
  }

  it(`the target is always one complete payload after ${LANES * KILLS_PER_LANE} kills; stray temps are the only leftovers`, async () => {
    const results = await Promise.all(Array.from({ length: LANES }, (_, i) => lane(join(dir, `lane-${i}`))));
    expect(results.reduce((n, r) => n + r.kills, 0)).toBeGreaterThanOrEqual(LANES * KILLS_PER_LANE);
    // Evidence that kills landed mid-write, not only between writes (30 kills make it sure; 8 may all land between writes).
    const tempsSeen = results.reduce((n, r) => n + r.tempsSeen, 0);
    if (SLOW_TIER) expect(tempsSeen, seedNote).toBeGreaterThan(0);
    // Evidence that the target really changed between kills.
    expect(results.every((r) => r.seqs.size > 1), seedNote).toBe(true);
  });
});

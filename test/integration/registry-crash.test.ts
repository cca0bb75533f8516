import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeClock } from '../../src/node/node-clock.js';
import { SessionRegistry } from '../../src/registry/index.js';
import { fullParseYaml } from '../../src/registry/yaml-full-parse.js';
import { type Child, spawnHelper } from '../helpers/fs-child.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { expectedMirror, readMirror } from '../helpers/registry-mirror.js';
import { byTier, SLOW_TIER, seededRandom } from '../helpers/tier.js';

const LANES = 2;
// npm test: 4 kills a lane; the slow tier (test/slow/registry-crash.test.ts) 25.
const KILLS_PER_LANE = byTier(4, 25);
const { random, seedNote } = seededRandom(20261205);
const TEMP = /^\.agent-sessions\.yaml\.[0-9a-f-]{36}\.tmp$/;

describe('SessionRegistry writers killed with SIGKILL', () => {
  const clock = new NodeClock();
  let dir: string;
  let dispose: () => Promise<void>;
  const children: Child[] = [];
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-reg-crash-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await dispose();
  });

  // One lane: a writer looping updates is killed at a random instant, again and again, over one workspace.
  async function lane(ws: string): Promise<{ kills: number; underLock: number; writers: Set<number> }> {
    const mam = join(ws, '.mam');
    await mkdir(mam, { recursive: true });
    let underLock = 0;
    const writers = new Set<number>();
    for (let i = 0; i < KILLS_PER_LANE; i++) {
      const writer = spawnHelper('registry-child.ts', ['churn', ws]);
      children.push(writer);
      await writer.line('ready');
      await clock.sleep(random() * 40);
      writer.proc.kill('SIGKILL');
      expect((await writer.exit).signal, writer.stderr()).toBe('SIGKILL');
      // A journal beside the lock file means the writer died holding the lock.
      if (existsSync(join(mam, 'agent-sessions.lock-journal'))) underLock++;

      // Never torn: the file is one complete version, strictly valid, for an independent parser and for a new reader.
      const doc = fullParseYaml(await readFile(join(mam, 'agent-sessions.yaml'), 'utf8')) as Record<string, unknown>;
      const seen = await new SessionRegistry(ws).snapshot();
      expect(seen.herdr_sessions.length).toBeGreaterThan(0);
      writers.add((doc['last_writer'] as { pid: number }).pid);

      // Never blocks: the next update gets the lock at once, sweeps the dead writer's temp, and re-syncs the mirror.
      const start = clock.monotonic();
      await new SessionRegistry(ws, { lockTimeoutMs: 5000 }).update((draft) => {
        draft['checked'] = i;
      });
      expect(clock.monotonic() - start).toBeLessThan(3000);
      expect((await readdir(mam)).filter((n) => TEMP.test(n))).toEqual([]);
      const after = fullParseYaml(await readFile(join(mam, 'agent-sessions.yaml'), 'utf8')) as Record<string, unknown>;
      expect(after['checked']).toBe(i);
      const mirror = readMirror(join(mam, 'agent-sessions.db'));
      expect({ rows: mirror?.rows, orchestrators: mirror?.orchestrators, extras: mirror?.extras }).toEqual(expectedMirror(after));
    }
    return { kills: KILLS_PER_LANE, underLock, writers };
  }

  it(`${LANES * KILLS_PER_LANE} kills at random instants never leave a torn YAML, a stuck lock, or a stale mirror`, async () => {
    const results = await Promise.all(Array.from({ length: LANES }, (_, i) => lane(join(dir, `ws-${i}`))));
    expect(results.reduce((n, r) => n + r.kills, 0)).toBeGreaterThanOrEqual(LANES * KILLS_PER_LANE);
    // Evidence that kills landed inside the critical section, not only between updates (50 kills make it sure; 8 may all
    // land between updates).
    if (SLOW_TIER) expect(results.reduce((n, r) => n + r.underLock, 0), seedNote).toBeGreaterThan(0);
    // Evidence that each lane's file really was rewritten by successive writers.
    expect(results.every((r) => r.writers.size > 1), seedNote).toBe(true);
  }, 120_000);
});

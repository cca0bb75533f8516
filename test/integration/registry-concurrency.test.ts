import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistry } from '../../src/registry/index.js';
import { fullParseYaml } from '../../src/registry/yaml-full-parse.js';
import { type Child, spawnHelper } from '../helpers/fs-child.js';
import { makeWorkspace } from '../helpers/registry-fixtures.js';
import { expectedMirror, readMirror } from '../helpers/registry-mirror.js';
import { byTier } from '../helpers/tier.js';

// npm test: 4 writers × 25 updates; the slow tier (test/slow/registry-concurrency.test.ts) 8 × 100.
const WRITERS = byTier(4, 8);
const UPDATES = byTier(25, 100);

describe('SessionRegistry with concurrent writer processes', () => {
  let ws: string;
  let yaml: string;
  let db: string;
  let dispose: () => Promise<void>;
  const children: Child[] = [];
  beforeEach(async () => {
    ({ ws, yaml, db, dispose } = await makeWorkspace('mam-reg-conc-'));
  });
  afterEach(async () => {
    for (const c of children.splice(0)) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
    await dispose();
  });

  it(`${WRITERS} processes × ${UPDATES} updates each on one registry lose none`, async () => {
    for (let w = 0; w < WRITERS; w++) children.push(spawnHelper('registry-child.ts', ['count', ws, String(UPDATES), `w${w}`]));
    const ends = await Promise.all(children.map((c) => c.exit));
    ends.forEach((end, i) => expect(end.code, children[i]?.stderr()).toBe(0));

    const state = await new SessionRegistry(ws).snapshot();
    expect(state['counter']).toBe(WRITERS * UPDATES);
    const names = state.herdr_sessions.map((r) => r.name);
    expect(new Set(names).size).toBe(WRITERS * UPDATES);
    for (let w = 0; w < WRITERS; w++) {
      // Each writer's rows are all there, and in the order it wrote them.
      const mine = names.filter((n) => n.startsWith(`w${w}-`));
      expect(mine).toEqual(Array.from({ length: UPDATES }, (_, i) => `w${w}-${i}`));
    }
    // The mirror is the YAML, as written by the last update.
    const doc = fullParseYaml(await readFile(yaml, 'utf8')) as Record<string, unknown>;
    const mirror = readMirror(db);
    expect(mirror).not.toBeNull();
    expect({ rows: mirror?.rows, orchestrators: mirror?.orchestrators, extras: mirror?.extras }).toEqual(expectedMirror(doc));
  }, 60_000);
});

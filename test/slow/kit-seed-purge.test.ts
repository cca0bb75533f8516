// Sandbox.seed, every agent and SQLite state, purged through the sandbox's real ports (real holder scans: lsof, /proc),
// as test/integration/kit-seed.test.ts does with an empty process table.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { AGENT_NAMES, type AgentName } from '../../src/ids/agent-names.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import type { SeedSqliteState } from '../../src/testing/sandbox/seed-sqlite.js';
import { checkSeededPurge, SQLITE_AGENTS } from '../helpers/kit-seed-case.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'mam-kit-seed-real-')));
});
afterAll(async () => {
  await sb?.[Symbol.asyncDispose]();
});

const CASES: Array<[AgentName, SeedSqliteState]> = AGENT_NAMES.flatMap((a): Array<[AgentName, SeedSqliteState]> =>
  SQLITE_AGENTS.includes(a) ? [[a, 'checkpointed'], [a, 'wal-only']] : [[a, 'checkpointed']]);

describe('Sandbox.seed on real ports: discover offers it, verify accepts it, purge removes it and leaves its sibling', () => {
  it.each(CASES)('%s (%s)', async (agent, sqlite) => {
    await checkSeededPurge(sb, agent, sqlite, sb.ports(), 'real');
  });
});

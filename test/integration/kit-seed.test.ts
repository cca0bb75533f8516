// Sandbox.seed: one finished conversation per call, laid down as the real CLI leaves it, without a process. The library's
// own discovery, verification and purge must treat it as a real one: offered in its workspace, accepted, purged with its
// sibling left.
import { mkdirSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { AGENT_NAMES, type AgentName } from '../../src/ids/agent-names.js';
import type { Ports } from '../../src/ports/index.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import type { SeedSqliteState } from '../../src/testing/sandbox/seed-sqlite.js';
import { checkSeededPurge, SQLITE_AGENTS } from '../helpers/kit-seed-case.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'mam-kit-seed-')));
});
afterAll(async () => {
  await sb?.[Symbol.asyncDispose]();
});

// No process plays any seeded conversation: the purges here see an empty process table (real runs, for the OpenCode
// CLI's `session delete`), which spares the real holder scans (lsof, /proc) ~1 s each. test/slow/kit-seed-purge.test.ts
// runs the same cases on the sandbox's real ports.
function quietPorts(): Ports {
  const real = sb.ports();
  return { ...real, proc: new FakeProcessTable([], { onRun: (file, args, opts) => real.proc.run(file, args, opts) }) };
}

const CASES: Array<[AgentName, SeedSqliteState]> = AGENT_NAMES.flatMap((a): Array<[AgentName, SeedSqliteState]> =>
  SQLITE_AGENTS.includes(a) ? [[a, 'checkpointed'], [a, 'wal-only']] : [[a, 'checkpointed']]);

describe('Sandbox.seed: discover offers it, verify accepts it, purge removes it and leaves its sibling', () => {
  it.each(CASES)('%s (%s)', async (agent, sqlite) => {
    await checkSeededPurge(sb, agent, sqlite, quietPorts(), 'quiet');
  });

  it('codex (wal-only) on the real ports, holder scans included', async () => {
    await checkSeededPurge(sb, 'codex', 'wal-only', sb.ports(), 'real');
  });

  it('a conversation is offered only in its own workspace, and an id given is the id written', async () => {
    const a = join(sb.workspace, 'only-a');
    const b = join(sb.workspace, 'only-b');
    mkdirSync(a);
    mkdirSync(b);
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(await sb.seed('claude', { workspace: a, id: id.toUpperCase() })).toBe(id);
    const claude = getAdapter('claude', { ports: sb.ports() });
    expect(await claude.discover(sb.context({ workspace: a }))).toEqual([id]);
    expect(await claude.discover(sb.context({ workspace: b }))).toEqual([]);
  });

  it('a long workspace path (a hashed Claude key past 200 chars, a slug Grok bucket past 255) is still its workspace', async () => {
    const workspace = join(sb.workspace, ...Array.from({ length: 8 }, (_, i) => `very-long-directory-name-${String(i).padStart(2, '0')}-ü x`), 'end');
    mkdirSync(workspace, { recursive: true });
    expect(workspace.length).toBeGreaterThan(255);
    for (const agent of AGENT_NAMES) {
      const id = await sb.seed(agent, { workspace });
      expect(await getAdapter(agent, { ports: sb.ports() }).discover(sb.context({ workspace })), agent).toEqual([id]);
    }
  });

  it('refuses what no CLI would write, writing nothing', async () => {
    const before = readdirSync(sb.home);
    await expect(sb.seed('vim' as AgentName)).rejects.toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
    await expect(sb.seed('opencode', { id: '0f8fad5b-d9cb-469f-a165-70867728950e' })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
    await expect(sb.seed('claude', { workspace: join(sb.workspace, 'missing') })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
    await expect(sb.seed('codex', { workspace: 'relative' })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
    await expect(sb.seed('hermes', { sqlite: 'journal' as SeedSqliteState })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_OPTIONS' });
    expect(readdirSync(sb.home)).toEqual(before);
  });

  it('60 conversations, 10 per agent, each discovered in the workspace (the time is printed, never judged)', async () => {
    const workspace = join(sb.workspace, 'sixty');
    mkdirSync(workspace);
    const t0 = performance.now();
    const ids = new Map<AgentName, string[]>();
    for (let i = 0; i < 10; i += 1) {
      for (const agent of AGENT_NAMES) ids.set(agent, [...(ids.get(agent) ?? []), await sb.seed(agent, { workspace })]);
    }
    const ms = performance.now() - t0;
    console.log(`seed: 60 conversations in ${ms.toFixed(0)} ms`);
    for (const agent of AGENT_NAMES) {
      const found = await getAdapter(agent, { ports: sb.ports() }).discover(sb.context({ workspace }));
      expect(found.sort(), agent).toEqual((ids.get(agent) ?? []).sort());
    }
  });
});

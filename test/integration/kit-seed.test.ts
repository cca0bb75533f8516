// Sandbox.seed: one finished conversation per call, laid down as the real CLI leaves it, without a process. The library's
// own discovery, verification and purge must treat it as a real one: offered in its workspace, accepted, purged with its
// sibling left.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/adapters/get-adapter.js';
import { AGENT_NAMES, type AgentName } from '../../src/ids/agent-names.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import type { SeedSqliteState } from '../../src/testing/sandbox/seed-sqlite.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await buildSandbox(await mkdtemp(join(tmpdir(), 'mam-kit-seed-')));
});
afterAll(async () => {
  await sb?.[Symbol.asyncDispose]();
});

// The database a seeded conversation's rows live in, per agent that keeps them in SQLite.
function dbOf(agent: AgentName, id: string): string | null {
  switch (agent) {
    case 'codex': return join(sb.home, '.codex', 'state_5.sqlite');
    case 'hermes': return join(sb.home, '.hermes', 'state.db');
    case 'opencode': return join(sb.home, '.local', 'share', 'opencode', 'opencode.db');
    case 'agy': return join(sb.home, '.gemini', 'antigravity-cli', 'conversations', `${id}.db`);
    default: return null;
  }
}

const SQLITE_AGENTS: readonly AgentName[] = ['codex', 'hermes', 'opencode', 'agy'];
const CASES: Array<[AgentName, SeedSqliteState]> = AGENT_NAMES.flatMap((a): Array<[AgentName, SeedSqliteState]> =>
  SQLITE_AGENTS.includes(a) ? [[a, 'checkpointed'], [a, 'wal-only']] : [[a, 'checkpointed']]);

describe('Sandbox.seed: discover offers it, verify accepts it, purge removes it and leaves its sibling', () => {
  it.each(CASES)('%s (%s)', async (agent, sqlite) => {
    const workspace = join(sb.workspace, `ws-${agent}-${sqlite}`);
    mkdirSync(workspace);
    const target = await sb.seed(agent, { workspace, sqlite });
    const sibling = await sb.seed(agent, { workspace, sqlite, at: Date.now() + 2000 });
    const db = dbOf(agent, target);
    if (db !== null) expect(existsSync(`${db}-wal`), `${db}-wal`).toBe(sqlite === 'wal-only');
    const adapter = getAdapter(agent, { ports: sb.ports() });
    const ctx = sb.context({ workspace });
    expect((await adapter.discover(ctx)).sort()).toEqual([target, sibling].sort());
    expect(await adapter.verifyArtifact(target, ctx, 'verify')).toBe(true);
    expect(await adapter.conversationInUse(target, ctx)).toBe(false);
    const result = await new PurgeService({ ports: sb.ports() }).purge(agent, target, { home: sb.home, workspace, env: sb.env });
    expect(result, JSON.stringify(result)).toMatchObject({ kind: 'purged', agent, inUse: false });
    expect(await adapter.discover(ctx)).toEqual([sibling]);
    expect(await adapter.verifyArtifact(target, ctx, 'verify')).toBe(false);
    expect(await adapter.verifyArtifact(sibling, ctx, 'verify')).toBe(true);
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

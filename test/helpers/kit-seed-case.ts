// One seeded conversation, checked end to end through the library: its sibling seeded beside it in a workspace of its
// own, the rows where the SQLite state says, discovered, verified, not in use, purged with the sibling left.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import type { AgentName } from '../../src/ids/agent-names.js';
import type { Ports } from '../../src/ports/index.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import type { SeedSqliteState } from '../../src/testing/sandbox/seed-sqlite.js';

/** The agents that keep a conversation's rows in SQLite. */
export const SQLITE_AGENTS: readonly AgentName[] = ['codex', 'hermes', 'opencode', 'agy'];

/** The database a seeded conversation's rows live in, for the agents that keep them in SQLite. */
export function seededDb(sb: Sandbox, agent: AgentName, id: string): string | null {
  switch (agent) {
    case 'codex': return join(sb.home, '.codex', 'state_5.sqlite');
    case 'hermes': return join(sb.home, '.hermes', 'state.db');
    case 'opencode': return join(sb.home, '.local', 'share', 'opencode', 'opencode.db');
    case 'agy': return join(sb.home, '.gemini', 'antigravity-cli', 'conversations', `${id}.db`);
    default: return null;
  }
}

/** Seeds a conversation and a sibling, then discovers, verifies and purges the first through `ports`. */
export async function checkSeededPurge(sb: Sandbox, agent: AgentName, sqlite: SeedSqliteState, ports: Ports, tag: string): Promise<void> {
  const workspace = join(sb.workspace, `ws-${agent}-${sqlite}-${tag}`);
  mkdirSync(workspace);
  const target = await sb.seed(agent, { workspace, sqlite });
  const sibling = await sb.seed(agent, { workspace, sqlite, at: Date.now() + 2000 });
  const db = seededDb(sb, agent, target);
  if (db !== null) {
    expect(existsSync(`${db}-wal`), `${db}-wal`).toBe(sqlite === 'wal-only');
    // WAL-only: the rows are in -wal alone (the main file never saw them); checkpointed: in the main file.
    expect(readFileSync(db).includes(target), `${target} in the main file of ${db}`).toBe(sqlite === 'checkpointed');
  }
  const adapter = getAdapter(agent, { ports });
  const ctx = sb.context({ workspace });
  expect((await adapter.discover(ctx)).sort()).toEqual([target, sibling].sort());
  expect(await adapter.verifyArtifact(target, ctx, 'verify')).toBe(true);
  expect(await adapter.conversationInUse(target, ctx)).toBe(false);
  const result = await new PurgeService({ ports }).purge(agent, target, { home: sb.home, workspace, env: sb.env });
  expect(result, JSON.stringify(result)).toMatchObject({ kind: 'purged', agent, inUse: false });
  expect(await adapter.discover(ctx)).toEqual([sibling]);
  expect(await adapter.verifyArtifact(target, ctx, 'verify')).toBe(false);
  expect(await adapter.verifyArtifact(sibling, ctx, 'verify')).toBe(true);
}

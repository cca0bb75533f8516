// The purge steps every real-CLI file runs, one helper each, so each CLI's file says only what differs: a refused purge
// of a live conversation changes nothing, a purge removes what it says, every byte of the purged id is accounted for, and
// a later turn still carries a sibling's content.
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import { getAdapter, PurgeService, type PurgeResult } from '../../../src/index.js';
import type { AgentName } from '../../../src/ids/agent-names.js';
import type { FakeModelServer } from '../../../src/testing/index.js';
import { accountHits, artifactPathOf, asText } from './account.js';
import { report } from './report.js';
import type { LiveCli } from './run-cli.js';
import type { RealSandbox } from './sandbox.js';
import { filesContaining, snapshotTree, treeDiff } from './tree.js';

export type Purged = Extract<PurgeResult, { kind: 'purged' }>;

const opts = (sb: RealSandbox, workspace: string) => ({ home: sb.home, workspace, env: sb.env });

/** With the live CLI stopped (it holds its files but cannot write), a purge is refused as in use and changes no byte of the sandbox. */
export async function expectRefusedPurgeChangesNothing(agent: AgentName, id: string, sb: RealSandbox, workspace: string, live: LiveCli): Promise<void> {
  live.signalGroup('SIGSTOP');
  try {
    const before = snapshotTree(sb.root);
    const refused = await new PurgeService().purge(agent, id, opts(sb, workspace));
    expect(refused.kind).toBe('in-use');
    expect(treeDiff(before, snapshotTree(sb.root))).toEqual([]);
  } finally {
    live.signalGroup('SIGCONT');
  }
}

/** Purges the conversation and checks the result: purged, every file it says it removed is gone, nothing of it left to find. */
export async function purgeAndCheck(agent: AgentName, id: string, sb: RealSandbox, workspace: string): Promise<Purged> {
  const result = await new PurgeService().purge(agent, id, opts(sb, workspace));
  expect(result.kind, JSON.stringify(result)).toBe('purged');
  const purged = result as Purged;
  expect(purged.purged.length).toBeGreaterThan(0);
  for (const a of purged.purged) if (!asText(a).includes(' rows)')) expect(existsSync(artifactPathOf(a)), asText(a)).toBe(false);
  const ctx = { workspace, home: sb.home, env: sb.env };
  expect(await getAdapter(agent).hasArtifacts(id, ctx)).toBe(false);
  expect(await getAdapter(agent).discover(ctx)).not.toContain(id);
  return purged;
}

/**
 * A byte search of the whole sandbox for the id after a purge that says `purged`: every file still holding it is a
 * mention the result names (a purged result leaves no residual), never one it says it removed, never one it does not name.
 */
export function expectEveryByteAccounted(what: string, sb: RealSandbox, id: string, result: PurgeResult): void {
  expect(result.kind, JSON.stringify(result)).toBe('purged');
  if (result.kind !== 'purged') return;
  const acc = accountHits(filesContaining(sb.root, id), result);
  report(what, acc);
  expect(acc.residual).toEqual([]);
  expect(acc.claimedRemoved).toEqual([]);
  expect(acc.unaccounted).toEqual([]);
}

/** The first request since `before` whose user text has `marker` carries every one of `texts` (the sibling's earlier turns). */
export function expectTurnCarries(server: FakeModelServer, before: number, marker: string, texts: readonly string[]): void {
  const turn = server.requests.slice(before).find((q) => q.userText.includes(marker));
  expect(turn, `no request with ${marker}`).toBeDefined();
  for (const t of texts) expect(JSON.stringify(turn?.body)).toContain(t);
}

// `purge('auto', id)` resolution on a real home with big Claude, Codex and OpenCode stores: the agents looked at together
// give the same answer as one hasArtifacts per agent in order on fresh adapters — an id of each agent, an id two agents
// claim (the first in AGENT_NAMES order wins, the other is listed) and one no agent has; and a purge runs on a fresh
// adapter, never on the ports' shared one.
import { copyFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adaptersOf } from '../../src/adapters/adapters-of.js';
import { getAdapter } from '../../src/adapters/get-adapter.js';
import { claudeProjectKey } from '../../src/adapters/claude/project-key.js';
import { AGENT_NAMES, type AgentName } from '../../src/ids/agent-names.js';
import { isPlausibleId } from '../../src/ids/agent-id.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { type BigHome, bigHome, uuidOf } from '../helpers/big-homes.js';

let root: string;
let big: BigHome;
let env: Record<string, string>;
let both: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-auto-')));
  big = bigHome(root, 0.01);
  env = { HOME: big.home, PATH: '/nonexistent-mam-bin' };
  // A Codex thread id that also names a Claude transcript: both agents claim it.
  both = big.codex.ids[3] as string;
  const claudeFile = join(big.claude.projects, claudeProjectKey(big.claude.workspaceOf(0)), `${big.claude.ids[0]}.jsonl`);
  copyFileSync(claudeFile, join(big.claude.projects, claudeProjectKey(big.claude.workspaceOf(0)), `${both}.jsonl`));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function oneByOne(id: string): Promise<AgentName[]> {
  const out: AgentName[] = [];
  const ctx = { workspace: big.home, homeDir: big.home, env };
  for (const agent of AGENT_NAMES) if (isPlausibleId(agent, id) && (await getAdapter(agent, { ports: nodePorts({ env }) }).hasArtifacts(id, ctx))) out.push(agent);
  return out;
}

describe("purge('auto', id) resolution", () => {
  it('resolves as one hasArtifacts per agent in order does: each agent, two claimants, none', async () => {
    const service = new PurgeService({ ports: nodePorts({ env }) });
    const cases: Array<[string, AgentName | null]> = [
      [big.claude.ids[5] as string, 'claude'],
      [big.codex.ids[7] as string, 'codex'],
      [big.opencode.ids[9] as string, 'opencode'],
      [both, 'claude'],
      [uuidOf(9, 9), null],
    ];
    for (const [id, want] of cases) {
      expect(await oneByOne(id), id).toEqual(want === null ? [] : id === both ? ['claude', 'codex'] : [want]);
      expect(await service.resolve(id, { workspace: big.home, homeDir: big.home, env }), id).toBe(want);
    }
    const plan = await service.plan('auto', both, { home: big.home, env });
    expect(plan.agent).toBe('claude');
    expect(plan.otherAgents.map((o) => o.agent)).toEqual(['codex']);
    const none = await service.plan('auto', uuidOf(9, 9), { home: big.home, env });
    expect(none.verdict).toBe('unresolved');
  });

  it('purges on a fresh adapter: the shared one keeps no memory of the purge', async () => {
    const ports = nodePorts({ env });
    const shared = adaptersOf(ports).get('opencode');
    const spy = vi.spyOn(shared, 'purgeArtifacts');
    const id = big.opencode.ids[20] as string;
    const result = await new PurgeService({ ports }).purge('auto', id, { home: big.home, env });
    expect(result.kind).toBe('purged');
    expect(spy).not.toHaveBeenCalled();
    expect(await shared.hasArtifacts(id, { workspace: big.home, homeDir: big.home, env })).toBe(false);
  });
});

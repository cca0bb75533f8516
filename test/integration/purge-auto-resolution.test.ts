// `purge('auto', id)` resolution on a real home with big Claude, Codex and OpenCode stores: the agents looked at together
// give the same answer as one hasArtifacts per agent in order on fresh adapters — an id of each agent, an id two agents
// claim (the first in AGENT_NAMES order wins, the other is listed) and one no agent has; and a purge runs on a fresh
// adapter, never on the ports' shared one.
import { copyFileSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adaptersOf } from '../../src/agents/adapters-of.js';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
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
  const ctx = { workspace: big.home, home: big.home, env };
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
      expect(await service.resolve(id, { workspace: big.home, home: big.home, env }), id).toBe(want);
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
    expect(await shared.hasArtifacts(id, { workspace: big.home, home: big.home, env })).toBe(false);
  });
});

describe('owns (by-id lookups) agrees with hasArtifacts', () => {
  it.each(['codex', 'claude'] as const)('%s: on every real stage, for every id there and one absent', async (agent) => {
    const { readdirSync } = await import('node:fs');
    const { cpSync } = await import('node:fs');
    const stages = readdirSync(join(import.meta.dirname, '../fixtures/real', agent)).filter((d) => !d.endsWith('.json'));
    for (const stage of stages) {
      const home = join(root, `real-${agent}-${stage}`);
      cpSync(join(import.meta.dirname, '../fixtures/real', agent, stage), home, { recursive: true });
      const ids = new Set<string>([uuidOf(9, 9), '01a229f2-dd9f-7f71-b03f-29e4937c4596']);
      const walk = (d: string): void => {
        for (const e of readdirSync(d, { withFileTypes: true })) {
          if (e.isDirectory()) walk(join(d, e.name));
          const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})/.exec(e.name);
          if (m?.[1] !== undefined) ids.add(m[1]);
        }
      };
      walk(home);
      const adapter = getAdapter(agent);
      const ctx = { workspace: home, home: home, env: { HOME: home, PATH: '/nonexistent-mam-bin', TMPDIR: join(home, 'no-tmp') } };
      expect(ids.size).toBeGreaterThan(2);
      for (const id of ids) expect(await adapter.owns?.(id, ctx), `${stage} ${id}`).toBe(await adapter.hasArtifacts(id, ctx));
    }
  });

  it('finds an orphan rollout (no row) in its date dir, a lone writer lock and a lone shell snapshot', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { v7Of } = await import('../helpers/big-homes.js');
    const codex = getAdapter('codex');
    const ctx = { workspace: big.home, home: big.home, env };
    const ms = Date.UTC(2026, 5, 1, 23, 30);
    const [orphan, locked, snapped] = [v7Of(ms, 1), v7Of(ms, 2), v7Of(ms, 3)];
    // Written in the local date dir of a zone east of UTC (the next day), as Codex there would.
    const day = join(big.home, '.codex', 'sessions', '2026', '06', '02');
    mkdirSync(day, { recursive: true });
    writeFileSync(join(day, `rollout-2026-06-02T08-30-00-${orphan}.jsonl`), '{}\n');
    writeFileSync(join(big.home, '.codex', 'thread-writer-locks', `${locked}.lock`), '');
    writeFileSync(join(big.home, '.codex', 'shell_snapshots', `${snapped}.123.sh`), '');
    for (const id of [orphan, locked, snapped]) {
      expect(await codex.hasArtifacts(id, ctx), id).toBe(true);
      expect(await codex.owns?.(id, ctx), id).toBe(true);
    }
    expect(await codex.owns?.(v7Of(ms, 4), ctx)).toBe(false);
  });
});

describe('owns answers as hasArtifacts', () => {
  it('OpenCode: sessions with and without a parent, orphaned message rows, missing and foreign ids, on the big store and the real stages', async () => {
    const { default: Database } = await import('better-sqlite3');
    const { materializeStage, realStages } = await import('../helpers/real-stage.js');
    const db = new Database(big.opencode.db);
    const [child, orphan] = [big.opencode.ids[5] as string, big.opencode.ids[6] as string];
    try {
      db.prepare('UPDATE session SET parent_id = ? WHERE id = ?').run(big.opencode.ids[0], child);
      // A session row gone while its messages stay: only the full look finds them.
      db.pragma('foreign_keys = OFF');
      db.prepare('DELETE FROM session WHERE id = ?').run(orphan);
    } finally {
      db.close();
    }
    const homes = [{ home: big.home, env, ids: [...big.opencode.ids.slice(0, 12), big.codex.ids[0] as string, 'ses_0000000000000000000000000z'] }];
    for (const name of realStages('opencode')) {
      const s = materializeStage(name, join(root, `owns-${name.replace('/', '-')}`));
      homes.push({ home: s.home, env: s.env, ids: [...s.expected.conversations.map((c) => c.id), 'ses_0000000000000000000000000z'] });
    }
    let yes = 0;
    for (const h of homes) {
      const ctx = { workspace: h.home, home: h.home, env: h.env };
      for (const id of h.ids) {
        const want = await getAdapter('opencode', { ports: nodePorts({ env: h.env }) }).hasArtifacts(id, ctx);
        const owner = getAdapter('opencode', { ports: nodePorts({ env: h.env }) });
        expect(await owner.owns?.(id, ctx), id).toBe(want);
        if (want) yes += 1;
      }
    }
    expect(yes).toBeGreaterThan(10);
  });
});

// `resumeStates` (what `mam status` shows) on a real mixed home — Claude, Codex and OpenCode stores plus the real Grok,
// agy and Hermes stages — answers exactly what one verifyArtifact per row on fresh adapters answers, and opens each agent
// database once per call, not once per row.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { resumeStates } from '../../src/inspect/resume-states.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { recordedId, rowAgent } from '../../src/registry/row-agent.js';
import type { SessionRow } from '../../src/registry/session-row.js';
import { mixedHome } from '../helpers/big-homes.js';

let root: string;
let home: string;
let env: Record<string, string>;
let rows: SessionRow[];
beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-status-')));
  const m = await mixedHome(root, 0.01, 60);
  home = m.big.home;
  env = m.env;
  rows = [...m.rows, { name: 'no-id', agent: 'codex', status: 'stopped', role: 'coder' } as unknown as SessionRow];
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('resumeStates on a mixed registry', () => {
  it('answers what one verifyArtifact per row on fresh adapters answers (some yes and some no for every agent)', async () => {
    const ports = nodePorts({ env });
    const got = await resumeStates(rows, { workspace: root, home, env, ports });
    const want = await Promise.all(
      rows.map(async (row) => {
        const id = recordedId(row);
        const agent = rowAgent(row);
        if (id === null || agent === undefined || agent === null) return 'no';
        return (await getAdapter(agent, { ports: nodePorts({ env }) }).verifyArtifact(id, { workspace: row.pane?.cwd ?? root, home: home, env }, 'verify')) ? 'yes' : 'no';
      }),
    );
    expect(got).toEqual(want);
    for (const agent of ['claude', 'codex', 'opencode', 'grok', 'agy', 'hermes']) {
      const mine = got.filter((_, i) => rows[i]?.agent === agent);
      expect(mine, agent).toContain('yes');
      expect(mine, agent).toContain('no');
    }
    expect(got.at(-1)).toBe('no');
  });

  it('opens each agent database once per call, however many rows name it', async () => {
    const stats = { opens: [] as string[] };
    await resumeStates(rows, { workspace: root, home, env, ports: nodePorts({ env }), stats });
    expect(stats.opens.length).toBe(new Set(stats.opens).size);
    expect(stats.opens).toContain(join(home, '.codex', 'state_5.sqlite'));
    expect(stats.opens).toContain(join(home, '.local/share/opencode/opencode.db'));
    expect(stats.opens.filter((p) => p.endsWith('state.db'))).toHaveLength(1);
  });

  it('verifyMany answers as verifyArtifact per id (each against its own workspace) and opens the store once', async () => {
    const { withReadScope } = await import('../../src/sqlite/read-scope.js');
    const mine = rows.filter((r) => r.agent === 'codex' && recordedId(r) !== null);
    const codex = getAdapter('codex', { ports: nodePorts({ env }) });
    const ctx = { workspace: root, home: home, env };
    const queries = mine.map((r) => ({ id: recordedId(r) as string, workspace: r.pane?.cwd ?? root }));
    const stats = { opens: [] as string[] };
    const got = await withReadScope(() => codex.verifyMany?.(queries, ctx) ?? Promise.resolve([]), stats);
    const want = await Promise.all(queries.map((q) => getAdapter('codex').verifyArtifact(q.id, { ...ctx, workspace: q.workspace }, 'verify')));
    expect(got).toEqual(want);
    expect(want).toContain(true);
    expect(want).toContain(false);
    expect(stats.opens.filter((p) => p.endsWith('state_5.sqlite'))).toHaveLength(1);
  });

  it('Codex resolves a workspace only for an id that no row recording the workspace as given answers', async () => {
    const { SpyFileSystem } = await import('../helpers/adapter-codex-spy.js');
    const mine = rows.filter((r) => r.agent === 'codex' && recordedId(r) !== null);
    const queries = mine.map((r) => ({ id: recordedId(r) as string, workspace: r.pane?.cwd ?? root }));
    const ctx = { workspace: root, home: home, env };
    const answers = await getAdapter('codex', { ports: nodePorts({ env }) }).verifyMany?.(queries, ctx);
    const yes = queries.filter((_, i) => answers?.[i] === true);
    const no = queries.filter((_, i) => answers?.[i] === false);
    expect(yes.length).toBeGreaterThan(0);
    expect(no.length).toBeGreaterThan(0);
    const spy = new SpyFileSystem(nodePorts({ env }).fs);
    const codex = getAdapter('codex', { ports: { ...nodePorts({ env }), fs: spy } });
    expect(await codex.verifyMany?.(yes, ctx)).toEqual(yes.map(() => true));
    expect(spy.calls.filter((c) => c.op === 'realpath')).toEqual([]);
    expect(await codex.verifyMany?.(no, ctx)).toEqual(no.map(() => false));
    expect(spy.calls.filter((c) => c.op === 'realpath').length).toBeGreaterThan(0);
  });

  it('checks the context once per call (one stat of the home for every agent and row), and a home that is none makes every row unknown', async () => {
    const { SpyFileSystem } = await import('../helpers/adapter-agy-files.js');
    const spy = new SpyFileSystem();
    const ports = nodePorts({ env });
    const got = await resumeStates(rows, { workspace: root, home, env, ports: { ...ports, fs: spy.port } });
    expect(got).toEqual(await resumeStates(rows, { workspace: root, home, env, ports: nodePorts({ env }) }));
    expect(spy.calls.filter((c) => c.op === 'stat' && c.path === home)).toHaveLength(1);
    const none = await resumeStates(rows, { workspace: root, home: join(root, 'no-such-home'), env, ports: nodePorts({ env }) });
    expect(none.slice(0, -1).every((s) => s === 'unknown')).toBe(true);
    expect(none.at(-1)).toBe('no');
  });
});

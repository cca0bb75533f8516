// verifyMany (one pass per store: Codex, OpenCode, Hermes, Claude, agy and Grok override it) answers exactly what verifyArtifact
// answers per id, in order, on every real fixture stage and on a generated mixed home: every id the stores hold (sub-agent
// threads and child sessions too) against every workspace of the stage (ids of another workspace), plus missing ids,
// non-ids, a missing workspace, deleted rollouts and stale (moved-home) rollout paths. agy's verifyArtifact is a batch of
// one, so agy is also held to the per-id rule as it stood before (the whole conversation read, the cache always read).
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { encodeGrokCwd } from '../../src/agents/grok/grok-encode.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/agents/get-adapter.js';
import type { AgentAdapter, HomeDiscoveryContext, VerifyQuery } from '../../src/agents/types.js';
import type { AgentName } from '../../src/ids/agent-names.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { withReadScope } from '../../src/sqlite/read-scope.js';
import { recordedId, rowAgent } from '../../src/registry/row-agent.js';
import { buildHome, genId, type GenHome, type GenThread } from '../helpers/codex-index-home.js';
import { HERMES_STAGES, materializeHermesStage } from '../helpers/adapter-hermes-real.js';
import { mixedHome, type MixedHome } from '../helpers/big-homes.js';
import { materializeStage, realStages } from '../helpers/real-stage.js';
import { freshId, makeClaudeSandbox, writeTranscript } from '../helpers/adapter-claude-sandbox.js';
import { buildAgyStage } from '../helpers/adapter-agy-stage.js';
import { agyPaths } from '../../src/agents/agy/agy-paths.js';
import { agyVerifyReference, buildAgyGenHome, type GenAgyConversation } from '../helpers/agy-gen-home.js';
import { materializeGrokStage } from '../helpers/adapter-grok-stage.js';
import { byTier } from '../helpers/tier.js';

const MISSING = ['019a0000-0000-7000-8000-000000000001', '00000000-0000-4000-8000-000000000000', 'ses_0000000000000000000000000a', '20260101_000000_abcdef', 'not an id'];

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-verify-many-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Every id of every table the three stores keep sessions in, read straight from each database file under `dir`.
function storedIds(dir: string): string[] {
  const out = new Set<string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && /\.(sqlite|db)$/.test(e.name)) {
        const db = new Database(p, { readonly: true, fileMustExist: true });
        try {
          for (const t of ['threads', 'session', 'sessions']) {
            try {
              for (const r of db.prepare(`SELECT id FROM ${t}`).all() as { id: unknown }[]) if (typeof r.id === 'string') out.add(r.id);
            } catch {
              // not this table
            }
          }
        } finally {
          db.close();
        }
      }
    }
  };
  walk(dir);
  return [...out];
}

// The adapter's verifyMany (every built-in adapter has one).
function many(a: AgentAdapter): NonNullable<AgentAdapter['verifyMany']> {
  if (a.verifyMany === undefined) throw new Error(`${a.name} has no verifyMany`);
  return a.verifyMany.bind(a);
}

async function perId(a: AgentAdapter, queries: readonly VerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const q of queries) out.push(await a.verifyArtifact(q.id, { ...ctx, workspace: q.workspace ?? ctx.workspace }, 'verify'));
  return out;
}

async function expectSame(agent: AgentName, env: Record<string, string>, ctx: HomeDiscoveryContext, queries: VerifyQuery[]): Promise<boolean[]> {
  const want = await perId(getAdapter(agent, { ports: nodePorts({ env }) }), queries, ctx);
  const got = await many(getAdapter(agent, { ports: nodePorts({ env }) }))(queries, ctx);
  expect(got).toEqual(want);
  // Inside a read scope (as resumeStates runs it) too.
  expect(await withReadScope(() => many(getAdapter(agent, { ports: nodePorts({ env }) }))(queries, ctx))).toEqual(want);
  return want;
}

function crossed(ids: readonly string[], workspaces: readonly string[]): VerifyQuery[] {
  const out: VerifyQuery[] = [];
  for (const id of [...ids, ...MISSING]) for (const workspace of workspaces) out.push({ id, workspace });
  // Without a workspace of its own: the context's.
  for (const id of ids) out.push({ id });
  return out;
}

describe('verifyMany answers as verifyArtifact per id on the real stages', () => {
  it.each([...realStages('codex'), ...realStages('opencode'), ...realStages('claude')])('%s', async (name) => {
    const s = materializeStage(name, join(root, name.replace('/', '-')));
    const agent = name.split('/')[0] as AgentName;
    const workspaces = [...new Set(s.expected.conversations.map((c) => c.workspace).filter((w): w is string => w !== null)), join(s.root, 'nowhere')];
    const ids = [...new Set([...s.expected.conversations.map((c) => c.id), ...storedIds(s.home)])];
    const want = await expectSame(agent, s.env, { workspace: workspaces[0] as string, home: s.home, env: s.env }, crossed(ids, workspaces));
    expect(want).toContain(true);
    expect(want).toContain(false);
  });

  it.each(HERMES_STAGES)('hermes/%s', async (name) => {
    const s = materializeHermesStage(name, join(root, `hermes-${name}`));
    const ids = storedIds(s.hermesHome);
    const want = await expectSame('hermes', s.ctx.env, s.ctx, crossed(ids, [s.wsA, s.wsB, join(s.root, 'nowhere')]));
    expect(want).toContain(false);
  });
});

describe('verifyMany answers as verifyArtifact per id on a generated mixed home', () => {
  let m: MixedHome;
  let byAgent: Map<AgentName, VerifyQuery[]>;
  beforeAll(async () => {
    m = await mixedHome(join(root, 'mixed'), 0.01, 60);
    // Stale and missing rollouts: a few rows point into a moved home, a few rollouts are gone.
    const db = new Database(m.big.codex.db);
    try {
      const rows = db.prepare('SELECT id, rollout_path FROM threads ORDER BY id LIMIT 12').all() as { id: string; rollout_path: string }[];
      rows.slice(0, 6).forEach((r) => db.prepare('UPDATE threads SET rollout_path = ? WHERE id = ?').run(r.rollout_path.replace(m.big.home, '/home/gone'), r.id));
      for (const r of rows.slice(6)) if (statSync(r.rollout_path, { throwIfNoEntry: false }) !== undefined) unlinkSync(r.rollout_path);
    } finally {
      db.close();
    }
    // Child (sub-agent) sessions: a few of the rows' OpenCode sessions get a parent.
    const oc = new Database(m.big.opencode.db);
    try {
      const kids = m.rows.filter((r) => r.agent === 'opencode').slice(0, 4).map((r) => recordedId(r) as string);
      for (const id of kids) oc.prepare('UPDATE session SET parent_id = ? WHERE id = ?').run(m.big.opencode.ids.at(-1), id);
    } finally {
      oc.close();
    }
    byAgent = new Map();
    for (const row of m.rows) {
      const id = recordedId(row);
      const agent = rowAgent(row);
      if (id === null || agent === undefined || agent === null) continue;
      const list = byAgent.get(agent) ?? [];
      list.push({ id, workspace: row.pane?.cwd ?? root }, { id, workspace: join(root, 'mixed', 'work') });
      byAgent.set(agent, list);
    }
    const codex = byAgent.get('codex') ?? [];
    for (const id of m.big.codex.ids.slice(0, 20)) for (const w of m.big.workspaces.slice(0, 3)) codex.push({ id, workspace: w });
  });

  it('for every agent, rows of their own workspace and of another, missing ids, stale and deleted rollouts', async () => {
    for (const [agent, queries] of byAgent) {
      const all = [...queries, ...MISSING.map((id) => ({ id }))];
      const want = await expectSame(agent, m.env, { workspace: join(root, 'mixed', 'work'), home: m.big.home, env: m.env }, all);
      expect(want, agent).toContain(true);
      expect(want, agent).toContain(false);
    }
  });

  it('in any order and with repeats (the answers follow the queries)', async () => {
    const agents = ['codex', 'opencode', 'hermes'] as const;
    const pools = agents.map((a) => [...(byAgent.get(a) ?? []), ...MISSING.map((id) => ({ id }))]);
    const ctx = { workspace: join(root, 'mixed', 'work'), home: m.big.home, env: m.env };
    const truth = await Promise.all(agents.map((a, i) => perId(getAdapter(a, { ports: nodePorts({ env: m.env }) }), pools[i] as VerifyQuery[], ctx)));
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 2 }), fc.array(fc.nat(), { maxLength: 30 }), async (k, picks) => {
        const pool = pools[k] as VerifyQuery[];
        const idx = picks.map((p) => p % pool.length);
        const got = await many(getAdapter(agents[k] as AgentName, { ports: nodePorts({ env: m.env }) }))(idx.map((i) => pool[i] as VerifyQuery), ctx);
        expect(got).toEqual(idx.map((i) => truth[k]?.[i]));
      }),
      // npm test a modest count; the slow tier (test/slow/verify-many-equivalence.test.ts) the full one.
      { numRuns: byTier(12, 25) },
    );
  });
});

describe('Codex verifyMany on random generated homes', () => {
  const thread: fc.Arbitrary<GenThread> = fc.record({
    cwd: fc.constantFrom('real', 'link', 'other'),
    archived: fc.boolean(),
    row: fc.constantFrom('present', 'missing', 'stale', 'moved'),
    subagent: fc.constantFrom('no', 'row', 'both'),
    rollout: fc.constantFrom('full', 'none', 'empty'),
    minute: fc.nat({ max: 60 * 24 * 40 }),
  });
  const home: fc.Arbitrary<GenHome> = fc.record({ threads: fc.array(thread, { minLength: 1, maxLength: 8 }), db: fc.constantFrom('trusted', 'incomplete', 'none'), given: fc.constantFrom('real', 'link') });
  let n = 0;
  it('sub-agent threads, stale and moved rows, missing rollouts, no or an incomplete DB: the same answers, in order', async () => {
    await fc.assert(
      fc.asyncProperty(home, async (spec) => {
        const dir = join(root, `gen-${(n += 1)}`);
        mkdirSync(dir, { recursive: true });
        const h = buildHome(dir, spec);
        const workspaces = [h.workspace, join(dir, 'work', 'other'), join(dir, 'work', 'ws'), join(dir, 'nowhere')];
        const queries = crossed([...h.ids, genId(999)], workspaces);
        await expectSame('codex', h.ctx.env, h.ctx, queries);
      }),
      { numRuns: byTier(15, 40) },
    );
  });
});

describe('Claude verifyMany with an unknown store beside the transcripts', () => {
  it('ids only the store records, ids with a transcript, ids of another workspace and fresh ids: the same answers', async () => {
    const sb = await makeClaudeSandbox();
    try {
      const [onlyInStore, withTranscript, elsewhere] = [freshId(), freshId(), freshId()];
      writeTranscript(sb, withTranscript, { start: '2026-11-30T00:00:00.000Z' });
      const db = new Database(join(sb.config, '__store.db'));
      try {
        db.exec('CREATE TABLE base_messages (uuid TEXT PRIMARY KEY, session_id TEXT NOT NULL, cwd TEXT NOT NULL, timestamp INTEGER NOT NULL, message_type TEXT)');
        const put = db.prepare("INSERT INTO base_messages VALUES (?, ?, ?, ?, 'user')");
        [[onlyInStore, sb.ws], [withTranscript, sb.ws], [elsewhere, '/somewhere/else']].forEach(([sid, cwd], i) => put.run(`m${i}`, sid, cwd, 1_700_000_000_000 + i));
      } finally {
        db.close();
      }
      const ctx = sb.ctx();
      const queries = crossed([onlyInStore, withTranscript, elsewhere, freshId()], [sb.ws, '/somewhere/else', join(sb.root, 'nowhere')]);
      const want = await expectSame('claude', sb.env, ctx, queries);
      expect(want.filter((w) => w)).toHaveLength(5);
    } finally {
      await sb.dispose();
    }
  });
});

// agy: the batch, the batch of one (verifyArtifact, both modes) and the per-id rule before the batch give the same answers.
async function expectAgySame(home: string, workspaces: readonly string[], ids: readonly string[]): Promise<boolean[]> {
  const env = {};
  const fs = nodePorts({ env }).fs;
  const p = agyPaths(home, env);
  // An upper-case spelling is the same conversation; a path-like or NUL-bearing one answers nothing.
  const hostile = ids.slice(0, 2).flatMap((id) => [id.toUpperCase(), `../${id}`, `${id}\0`]);
  const queries = crossed([...ids, ...hostile, ''], workspaces);
  const ctx = { workspace: workspaces[0] as string, home, env };
  const ref = (mode: 'verify' | 'discover'): Promise<boolean[]> => Promise.all(queries.map((q) => agyVerifyReference(fs, p, q.id, q.workspace ?? ctx.workspace, mode)));
  const want = await ref('verify');
  expect(await expectSame('agy', env, ctx, queries)).toEqual(want);
  const agy = getAdapter('agy', { ports: nodePorts({ env }) });
  const discover = await Promise.all(queries.map((q) => agy.verifyArtifact(q.id, { ...ctx, workspace: q.workspace ?? ctx.workspace }, 'discover')));
  expect(discover).toEqual(await ref('discover'));
  return want;
}

describe('agy verifyMany', () => {
  it('on the agy stage (a killed writer\'s WAL, a superseded conversation, leftovers only): the same answers', async () => {
    const s = await buildAgyStage(join(root, 'agy-stage'));
    const want = await expectAgySame(s.home, [s.wsA, s.wsB, join(root, 'agy-stage', 'nowhere')], s.conversations.map((c) => c.id));
    expect(want).toContain(true);
    expect(want).toContain(false);
  });

  const conv: fc.Arbitrary<GenAgyConversation> = fc.record({
    cli: fc.constantFrom('a', 'b', 'both', 'link', 'empty', 'norecord', 'garbage', 'none'),
    acp: fc.constantFrom('none', 'a', 'b', 'nometa'),
    cache: fc.constantFrom('none', 'a', 'b', 'link'),
    sub: fc.boolean(),
  });
  let n = 0;
  it('on random homes (recorded, linked and unrecorded workspaces, ACP copies, subagents, cache hints, garbage): the same answers', async () => {
    const seen: boolean[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(conv, { minLength: 1, maxLength: 5 }), async (convs) => {
        const dir = join(root, `agy-gen-${(n += 1)}`);
        mkdirSync(dir, { recursive: true });
        const h = buildAgyGenHome(dir, convs);
        seen.push(...(await expectAgySame(h.home, [h.wsA, h.wsB, h.link, join(dir, 'nowhere')], h.ids)));
      }),
      { numRuns: byTier(6, 12) },
    );
    // The homes gave both answers.
    expect(seen).toContain(true);
    expect(seen).toContain(false);
  });
});

// Grok: verifyMany lists sessions/ once per call (verifyArtifact is a one-id call of it); the answers must be those of
// one call per id, on the grok stage (subagent children, hidden sessions, a fork, two workspaces) with a workspace given
// through a link and a bucket whose recorded cwd is a link to a workspace.
describe('Grok verifyMany on the grok stage', () => {
  it('every id of the stage against every workspace (given, through a link, recorded through a link), missing ids: the same answers', async () => {
    const st = materializeGrokStage(join(root, 'grok-stage'));
    const link = join(st.root, 'ws-link');
    symlinkSync(st.wsA, link);
    const spelled = join(st.home, '.grok', 'sessions', encodeGrokCwd(link) as string);
    const viaLink = '01a0355c-0000-7000-8000-00000000aaaa';
    mkdirSync(join(spelled, viaLink), { recursive: true });
    writeFileSync(join(spelled, viaLink, 'summary.json'), JSON.stringify({ info: { id: viaLink, cwd: link }, updated_at: '2026-08-24T20:00:55Z' }));
    const ids = [...Object.keys(st.expected.sessions), viaLink];
    const want = await expectSame('grok', {}, { workspace: st.wsA, home: st.home, env: {} }, crossed(ids, [st.wsA, st.wsB, link, join(st.root, 'nowhere')]));
    expect(want).toContain(true);
    expect(want).toContain(false);
    expect(await perId(getAdapter('grok', { ports: nodePorts({ env: {} }) }), [{ id: viaLink, workspace: st.wsA }], { workspace: st.wsA, home: st.home, env: {} })).toEqual([true]);
  });
});

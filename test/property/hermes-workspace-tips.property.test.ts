// Hermes discover lets SQLite find the workspace's rows (distinct recorded directories, then the rows recording a
// matching one, ACP cwds inside model_config JSON) and reads only their conversations: the tips it returns must be the
// ones the whole session graph gives (every root, its conversation, root or tip of the workspace), on random graphs
// (compression chains, delegates, branches, resets, tools, cycles) with cwd, git_repo_root and ACP cwds mixed.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HermesGraph } from '../../src/agents/hermes/hermes-conversation.js';
import { type HermesSession, sessionRows } from '../../src/agents/hermes/hermes-sessions.js';
import { workspaceTips } from '../../src/agents/hermes/hermes-workspace-tips.js';
import { realSessionsSchema } from '../helpers/adapter-hermes-real.js';

const SCHEMA = realSessionsSchema();
const HAS_GIT = SCHEMA.some((s) => /git_repo_root/i.test(s));

type Where = 'ws' | 'alias' | 'other' | 'none';
interface Gen {
  parent: number | null;
  end: 'compression' | 'user' | null;
  kind: 'plain' | 'delegate' | 'branch' | 'reset' | 'tool';
  started: number;
  cwd: Where;
  git: Where;
  acp: Where | 'escaped' | 'bad-json';
}
const where = fc.constantFrom<Where>('ws', 'alias', 'other', 'none', 'none');
const node: fc.Arbitrary<Gen> = fc.record({
  parent: fc.option(fc.nat({ max: 25 }), { nil: null, freq: 3 }),
  end: fc.constantFrom('compression', 'compression', 'user', null),
  kind: fc.constantFrom('plain', 'plain', 'plain', 'delegate', 'branch', 'reset', 'tool'),
  started: fc.integer({ min: 0, max: 50 }),
  cwd: where,
  git: where,
  acp: fc.constantFrom<Where | 'escaped' | 'bad-json'>('none', 'none', 'ws', 'alias', 'other', 'escaped', 'bad-json'),
});
const sid = (i: number): string => `20260101_1200${String(i).padStart(2, '0')}_${i.toString(16).padStart(6, '0')}`;
const DIR: Record<Where, string | null> = { ws: '/ws', alias: '/ws-link', other: '/elsewhere', none: null };
// '/ws' and its other spelling '/ws-link' are the workspace.
const matches = (d: string): Promise<boolean> => Promise.resolve(d === '/ws' || d === '/ws-link');

function build(nodes: readonly Gen[]): Database.Database {
  const db = new Database(':memory:');
  db.pragma('foreign_keys = OFF');
  for (const s of SCHEMA) db.exec(s);
  const cols = ['id', 'source', 'parent_session_id', 'started_at', 'end_reason', 'ended_at', 'cwd', 'model_config', ...(HAS_GIT ? ['git_repo_root'] : [])];
  const ins = db.prepare(`INSERT INTO sessions (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
  nodes.forEach((n, i) => {
    const parent = n.parent === null || n.parent >= nodes.length ? null : sid(n.parent);
    const cfg: Record<string, unknown> = n.kind === 'delegate' ? { _delegate_from: parent } : n.kind === 'branch' ? { _branched_from: parent } : n.kind === 'reset' ? { _reset_from: parent } : {};
    let text = JSON.stringify(n.acp === 'none' || n.acp === 'escaped' || n.acp === 'bad-json' ? cfg : { ...cfg, cwd: DIR[n.acp] });
    if (n.acp === 'escaped') text = `{"\\u0063wd": "/ws"${Object.keys(cfg).length > 0 ? `, ${text.slice(1)}` : '}'}`;
    if (n.acp === 'bad-json') text = '{"cwd": "/ws"';
    const vals = [sid(i), n.kind === 'tool' ? 'tool' : n.acp === 'none' ? 'cli' : 'acp', parent, 1_790_000_000 + n.started, n.end, n.end === null ? null : 1_790_000_100, DIR[n.cwd], text, ...(HAS_GIT ? [DIR[n.git]] : [])];
    ins.run(...vals);
  });
  return db;
}

// The rule as discover applied it to the whole graph.
function wholeGraphTips(rows: readonly HermesSession[], isWs: (d: string | null) => boolean = (d) => d === '/ws' || d === '/ws-link'): string[] {
  const graph = new HermesGraph(rows);
  const ofHere = (s: HermesSession): boolean => [s.cwd, s.gitRepoRoot, s.configCwd].some(isWs);
  const out = new Set<string>();
  for (const root of graph.roots()) {
    const conv = graph.conversation(root.id);
    if (conv !== undefined && conv.root.id === root.id && (ofHere(conv.root) || ofHere(conv.tip))) out.add(conv.tip.id);
  }
  return [...out].sort();
}

describe('hermes workspaceTips', () => {
  it('gives the tips the whole session graph gives', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(node, { minLength: 1, maxLength: 26 }), async (nodes) => {
        const db = build(nodes);
        try {
          const got = (await workspaceTips(db, matches)).map((s) => s.id).sort();
          expect(got).toEqual(wholeGraphTips(sessionRows(db)));
        } finally {
          db.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same tips when the workspace has more spellings than are bound one by one (a JSON list)', async () => {
    // Each row's cwd and git_repo_root get one of 12 sub-spellings, every one the workspace: up to 24 matching directories.
    const isWs = (d: string | null): boolean => d !== null && /^\/ws(-link)?(\/\d+)?$/.test(d);
    await fc.assert(
      fc.asyncProperty(fc.array(node, { minLength: 1, maxLength: 26 }), async (nodes) => {
        const db = build(nodes);
        try {
          db.exec("UPDATE sessions SET cwd = cwd || '/' || (rowid % 12) WHERE cwd IS NOT NULL");
          if (HAS_GIT) db.exec("UPDATE sessions SET git_repo_root = git_repo_root || '/' || ((rowid + 5) % 12) WHERE git_repo_root IS NOT NULL");
          const got = (await workspaceTips(db, (d) => Promise.resolve(isWs(d)))).map((s) => s.id).sort();
          expect(got).toEqual(wholeGraphTips(sessionRows(db), isWs));
        } finally {
          db.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('a workspace no row records reads no session row into JS', async () => {
    const nodes: Gen[] = Array.from({ length: 500 }, (_, i) => ({ parent: null, end: 'user', kind: 'plain', started: i % 50, cwd: 'other', git: 'none', acp: 'none' }));
    const db = build(nodes);
    try {
      expect(await workspaceTips(db, matches)).toEqual([]);
    } finally {
      db.close();
    }
  });
});

// Hermes verifyArtifact reads the id's neighbourhood (its row, ancestors, its chain's continuations) by the primary key
// and the parent index instead of the whole sessions table: the conversation it finds — own row, root, chain, tip — must
// be the one the whole table gives, on random session graphs (compression chains, delegates, branches, resets, cycles).
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { chainRows } from '../../src/agents/hermes/hermes-chain-rows.js';
import { HermesGraph } from '../../src/agents/hermes/hermes-conversation.js';
import { sessionRows } from '../../src/agents/hermes/hermes-sessions.js';
import { realSessionsSchema } from '../helpers/adapter-hermes-real.js';

const SCHEMA = realSessionsSchema();

interface Gen {
  parent: number | null;
  end: 'compression' | 'user' | null;
  kind: 'plain' | 'delegate' | 'branch' | 'reset' | 'tool';
  started: number;
}

const node: fc.Arbitrary<Gen> = fc.record({
  parent: fc.option(fc.nat({ max: 30 }), { nil: null, freq: 3 }),
  end: fc.constantFrom('compression', 'compression', 'user', null),
  kind: fc.constantFrom('plain', 'plain', 'plain', 'delegate', 'branch', 'reset', 'tool'),
  started: fc.integer({ min: 0, max: 50 }),
});

const sid = (i: number): string => `20260101_1200${String(i).padStart(2, '0')}_${i.toString(16).padStart(6, '0')}`;

function build(nodes: readonly Gen[], file = ':memory:', ws = '/ws'): Database.Database {
  const db = new Database(file);
  // Rows may name a parent inserted later, or themselves (a cycle): as a crashed writer may leave them.
  db.pragma('foreign_keys = OFF');
  for (const s of SCHEMA) db.exec(s);
  const ins = db.prepare('INSERT INTO sessions (id, source, parent_session_id, started_at, end_reason, ended_at, cwd, model_config) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  nodes.forEach((n, i) => {
    const parent = n.parent === null || n.parent >= nodes.length ? null : sid(n.parent);
    const cfg = n.kind === 'delegate' ? { _delegate_from: parent } : n.kind === 'branch' ? { _branched_from: parent } : n.kind === 'reset' ? { _reset_from: parent } : {};
    ins.run(sid(i), n.kind === 'tool' ? 'tool' : 'cli', parent, 1_790_000_000 + n.started, n.end, n.end === null ? null : 1_790_000_100, i % 3 === 0 ? ws : i % 3 === 1 ? `${ws}-other` : null, JSON.stringify(cfg));
  });
  return db;
}

const view = (g: HermesGraph, id: string): unknown => {
  const own = g.find(id);
  const conv = g.conversation(id);
  return { own: own?.id, delegate: own === undefined ? null : g.isDelegate(own), root: conv?.root, tip: conv?.tip, chain: conv?.chain };
};

describe('hermes chainRows', () => {
  it('finds the same own row, root, chain and tip as the whole table, reading only the neighbourhood', () => {
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 30 }), (nodes) => {
        const db = build(nodes);
        try {
          const whole = new HermesGraph(sessionRows(db));
          for (let i = 0; i <= nodes.length; i += 1) {
            const id = sid(i);
            const part = chainRows(db, id);
            expect(view(new HermesGraph(part), id), id).toEqual(view(whole, id));
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds the same as the whole table when ids are stored in other cases (upper-cased ids, uuids in any case)', () => {
    const uuid = (i: number): string => `0000${i.toString(16).padStart(4, '0')}-abcd-4def-8abc-${i.toString(16).padStart(12, '0')}abcdef`.slice(0, 36);
    fc.assert(
      fc.property(fc.array(node, { minLength: 1, maxLength: 30 }), fc.array(fc.constantFrom('same', 'upper', 'uuid', 'UUID', 'Uuid'), { minLength: 31, maxLength: 31 }), (nodes, cases) => {
        const db = build(nodes);
        try {
          // Rename each id (and every parent naming it) to its other spelling; a mixed-case uuid matches by no spelling of three.
          const mixed = (u: string): string => `${u.slice(0, 9).toUpperCase()}${u.slice(9)}`;
          const renamed = (i: number): string => {
            const c = cases[i] as string;
            return c === 'same' ? sid(i) : c === 'upper' ? sid(i).toUpperCase() : c === 'uuid' ? uuid(i) : c === 'UUID' ? uuid(i).toUpperCase() : mixed(uuid(i));
          };
          for (let i = 0; i < nodes.length; i += 1) {
            db.prepare('UPDATE sessions SET parent_session_id = ? WHERE parent_session_id = ?').run(renamed(i), sid(i));
            db.prepare('UPDATE sessions SET id = ? WHERE id = ?').run(renamed(i), sid(i));
          }
          const whole = new HermesGraph(sessionRows(db));
          for (let i = 0; i <= nodes.length; i += 1) {
            for (const id of new Set([sid(i), sid(i).toUpperCase(), uuid(i), uuid(i).toUpperCase(), mixed(uuid(i))])) {
              expect(view(new HermesGraph(chainRows(db, id)), id), id).toEqual(view(whole, id));
            }
          }
        } finally {
          db.close();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('reads the neighbourhood, not the table: 3 rows of a chain among 2,000 sessions', () => {
    const nodes: Gen[] = Array.from({ length: 2000 }, (_, i) => ({ parent: null, end: 'user', kind: 'plain', started: i % 50 }));
    nodes[10] = { parent: null, end: 'compression', kind: 'plain', started: 1 };
    nodes[11] = { parent: 10, end: 'compression', kind: 'plain', started: 2 };
    nodes[12] = { parent: 11, end: null, kind: 'plain', started: 3 };
    const db = build(nodes);
    try {
      const part = chainRows(db, sid(11));
      expect(part.map((r) => r.id).sort()).toEqual([sid(10), sid(11), sid(12)]);
      expect(new HermesGraph(part).conversation(sid(11))?.chain).toEqual([sid(10), sid(11), sid(12)]);
    } finally {
      db.close();
    }
  });
});

describe('hermes discover', () => {
  it('finds the conversations the whole graph gives (each root walked, its root or tip of the workspace), newest tip first', async () => {
    const hermes = new HermesAdapter(nodePorts());
    await fc.assert(
      fc.asyncProperty(fc.array(node, { minLength: 1, maxLength: 30 }), async (nodes) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-hermes-disc-')));
        try {
          const ws = join(root, 'ws');
          mkdirSync(ws);
          mkdirSync(join(root, 'home', '.hermes'), { recursive: true });
          const db = build(nodes, join(root, 'home', '.hermes', 'state.db'), ws);
          const whole = new HermesGraph(sessionRows(db));
          db.close();
          const here = (s: { cwd: string | null; gitRepoRoot: string | null; configCwd: string | null }): boolean => [s.cwd, s.gitRepoRoot, s.configCwd].includes(ws);
          const tips = whole
            .roots()
            .map((r) => whole.conversation(r.id))
            .filter((c) => c !== undefined && (here(c.root) || here(c.tip)))
            .map((c) => c?.tip as NonNullable<typeof c>['tip']);
          const order = (s: { startedAt: number | null }): number => s.startedAt ?? Number.NEGATIVE_INFINITY;
          const want = [...new Set(tips.sort((a, b) => order(b) - order(a) || a.id.localeCompare(b.id)).map((t) => t.id))];
          expect(await hermes.discover({ workspace: ws, home: join(root, 'home'), env: {} })).toEqual(want);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  });
});

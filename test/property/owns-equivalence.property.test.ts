// `owns` (what purge('auto', id) asks each agent, from by-id and by-name lookups) must answer exactly as `hasArtifacts`
// (the full scan a purge plans from) — never false where a purge would find something: on random Claude and Codex homes
// with ids that have only leftovers (a todo list, a telemetry file, a temp dir, a job state, a pid file, a row of an
// unknown store; a writer lock, a shell snapshot, an orphan rollout, rows of the other thread tables, a sub-agent thread
// naming it), look-alikes that are not the id's, linked leftovers, and untrusted or absent state databases.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { CodexAdapter } from '../../src/agents/codex/codex-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { buildHome, genId, genRolloutPath, type GenHome, type GenThread } from '../helpers/codex-index-home.js';
import { byTier } from '../helpers/tier.js';

const CLAUDE_KINDS = [
  'transcript', 'project-dir', 'session-env', 'file-history', 'tasks', 'debug', 'todo', 'todo-lookalike', 'telemetry',
  'telemetry-event', 'tmp', 'job', 'job-other', 'session', 'store', 'linked-env',
] as const;
type ClaudeKind = (typeof CLAUDE_KINDS)[number];

function claudeId(n: number): string {
  return `0190aaaa-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

// Lays out one leftover of `kind` for `id` under the Claude config `c` (temp root `tmp`, project keys `keys`).
function claudeLeftover(c: string, tmp: string, keys: readonly string[], kind: ClaudeKind, id: string, n: number): void {
  const key = keys[n % keys.length] as string;
  const other = claudeId(999);
  switch (kind) {
    case 'transcript': return put(join(c, 'projects', key, `${id}.jsonl`), '{}\n');
    case 'project-dir': return put(join(c, 'projects', key, id, 'subagents', 'agent-1.jsonl'), '{}\n');
    case 'session-env': return put(join(c, 'session-env', id, 'env'), 'X=1\n');
    case 'file-history': return put(join(c, 'file-history', id, 'a@v1'), 'x');
    case 'tasks': return put(join(c, 'tasks', id, '1.json'), '{}');
    case 'debug': return put(join(c, 'debug', `${id}.txt`), 'log');
    case 'todo': return put(join(c, 'todos', `${id}-agent-${id}.json`), '[]');
    case 'todo-lookalike': return put(join(c, 'todos', `${id}.json`), '[]');
    case 'telemetry': return put(join(c, 'telemetry', `1p_failed_events.${id}.${other}.json`), '{}');
    case 'telemetry-event': return put(join(c, 'telemetry', `1p_failed_events.${other}.${id}.json`), '{}');
    case 'tmp': return put(join(tmp, 'claude-1000', key, id, 'tasks', 'out.txt'), 'x');
    case 'job': return put(join(c, 'jobs', `j${n}`, 'state.json'), JSON.stringify({ sessionId: id, status: 'done' }));
    case 'job-other': return put(join(c, 'jobs', `k${n}`, 'state.json'), JSON.stringify({ sessionId: other, note: id }));
    case 'session': return put(join(c, 'sessions', `${4_000_000 + n}.json`), JSON.stringify({ pid: 4_000_000 + n, sessionId: id, procStart: '1' }));
    case 'store': {
      mkdirSync(c, { recursive: true });
      const db = new Database(join(c, `old-${n}.db`));
      try {
        db.exec('CREATE TABLE conversations (session_id TEXT, cwd TEXT)');
        db.prepare('INSERT INTO conversations VALUES (?, ?)').run(id, '/w');
      } finally {
        db.close();
      }
      return;
    }
    case 'linked-env': {
      const target = join(dirname(c), `elsewhere-${n}`);
      mkdirSync(target, { recursive: true });
      mkdirSync(join(c, 'session-env'), { recursive: true });
      // Only where the id has no session-env dir of its own yet (a leftover listed twice is one leftover).
      return existsSync(join(c, 'session-env', id)) ? undefined : symlinkSync(target, join(c, 'session-env', id));
    }
    default:
      throw new Error(kind satisfies never);
  }
}

const claudeHomes = fc.record({
  keys: fc.integer({ min: 0, max: 3 }),
  leftovers: fc.array(fc.record({ id: fc.integer({ min: 0, max: 4 }), kind: fc.constantFrom(...CLAUDE_KINDS) }), { maxLength: 8 }),
});

describe('owns answers exactly as hasArtifacts', () => {
  it('claude: random homes of leftovers (and look-alikes) per id', async () => {
    await fc.assert(
      fc.asyncProperty(claudeHomes, async (spec) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-owns-claude-')));
        try {
          const home = join(root, 'home');
          const c = join(home, '.claude');
          const tmp = join(root, 'tmp');
          const keys = Array.from({ length: spec.keys }, (_, i) => `-work-p${i}`);
          for (const k of keys) mkdirSync(join(c, 'projects', k), { recursive: true });
          for (const d of [c, tmp]) mkdirSync(d, { recursive: true });
          spec.leftovers.forEach((l, n) => claudeLeftover(c, tmp, keys.length === 0 ? ['-work-only'] : keys, l.kind, claudeId(l.id), n));
          const ctx = { workspace: home, home, env: { HOME: home, TMPDIR: tmp, PATH: '/nonexistent-mam-bin' } };
          const owner = new ClaudeAdapter(nodePorts({ env: ctx.env }));
          for (let n = 0; n <= 5; n += 1) {
            const id = claudeId(n);
            expect(await owner.owns(id, ctx), `${id} ${JSON.stringify(spec)}`).toBe(await new ClaudeAdapter(nodePorts({ env: ctx.env })).hasArtifacts(id, ctx));
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: byTier(12, 30) },
    );
  });

  const CODEX_EXTRAS = ['lock', 'snapshot', 'snapshot-lookalike', 'orphan-rollout', 'dynamic-tool', 'spawn-edge', 'skipped-rollout', 'read-receipt', 'mention-only'] as const;
  type CodexExtra = (typeof CODEX_EXTRAS)[number];
  const thread: fc.Arbitrary<GenThread> = fc.record({
    cwd: fc.constant('real' as const),
    archived: fc.boolean(),
    row: fc.constantFrom('present', 'missing', 'stale', 'moved'),
    subagent: fc.constantFrom('no', 'no', 'row', 'both'),
    rollout: fc.constantFrom('full', 'none', 'empty'),
    minute: fc.integer({ min: 0, max: 20_000 }),
  // The generated ids' own (v7) time is not their rollout's: a thread without a row keeps no rollout here — the orphan
  // rollouts are the extras', named at their id's own time as Codex names both at the thread's start.
  }).map((t) => (t.row === 'missing' ? { ...t, rollout: 'none' as const } : t));
  const codexHomes = fc.record({
    threads: fc.array(thread, { minLength: 0, maxLength: 5 }),
    db: fc.constantFrom('trusted', 'trusted', 'incomplete', 'none'),
    extras: fc.array(fc.record({ id: fc.integer({ min: 20, max: 23 }), kind: fc.constantFrom(...CODEX_EXTRAS) }), { maxLength: 6 }),
  });

  function codexExtra(codex: string, kind: CodexExtra, id: string, n: number): void {
    const db = join(codex, 'state_5.sqlite');
    const sql = (text: string, ...args: unknown[]): void => {
      const h = new Database(db);
      try {
        // A leftover row whose thread row is gone: the foreign key is what a crash or an older Codex does not keep.
        h.pragma('foreign_keys = OFF');
        h.prepare(text).run(...args);
      } finally {
        h.close();
      }
    };
    const hasDb = (): boolean => {
      try {
        new Database(db, { readonly: true, fileMustExist: true }).close();
        return true;
      } catch {
        return false;
      }
    };
    switch (kind) {
      case 'lock': return put(join(codex, 'thread-writer-locks', `${id}.lock`), '');
      case 'snapshot': return put(join(codex, 'shell_snapshots', `${id}.17000000${n}.sh`), 'export A=1\n');
      case 'snapshot-lookalike': return put(join(codex, 'shell_snapshots', `x${id}.sh`), '');
      case 'orphan-rollout': {
        // Named in the local time of some zone (UTC−12 … UTC+14) at the id's own v7 time, in a date dir or archived.
        const ms = Number.parseInt(`${id.slice(0, 8)}${id.slice(9, 13)}`, 16);
        const zone = [-12, -3, 0, 5, 9, 14][n % 6] as number;
        return put(genRolloutPath(codex, id, Math.floor((ms + zone * 3_600_000) / 1000), n % 4 === 3), '{}\n');
      }
      case 'dynamic-tool': return hasDb() ? sql("INSERT INTO thread_dynamic_tools (thread_id, position, name, description, input_schema) VALUES (?, ?, 't', 'd', '{}')", id, n) : undefined;
      case 'spawn-edge': return hasDb() ? sql("INSERT OR REPLACE INTO thread_spawn_edges (parent_thread_id, child_thread_id, status) VALUES (?, ?, 'open')", id, genId(500 + n)) : undefined;
      case 'skipped-rollout': return hasDb() ? sql("INSERT OR REPLACE INTO rollout_migration_skipped_rollouts VALUES ('m1', ?, 1, 1, 'x', 1)", genRolloutPath('/old/.codex', id, 1_790_000_000, false)) : undefined;
      case 'read-receipt': return hasDb() ? sql("INSERT OR REPLACE INTO thread_read_receipts (thread_id, revision) VALUES (?, 'r')", id) : undefined;
      case 'mention-only': return hasDb() ? sql("INSERT OR REPLACE INTO rollout_migration_state (migration_id, last_checked_thread_id, updated_at) VALUES ('m2', ?, 1)", id) : undefined;
      default:
        throw new Error(kind satisfies never);
    }
  }

  it('codex: random homes (rows, orphan rollouts, sub-agents, locks, snapshots, other tables; trusted, untrusted, no DB)', async () => {
    await fc.assert(
      fc.asyncProperty(codexHomes, async (spec) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-owns-codex-')));
        try {
          const h = buildHome(root, { threads: spec.threads, db: spec.db, given: 'real' } satisfies GenHome);
          for (const d of ['thread-writer-locks', 'shell_snapshots']) mkdirSync(join(h.codex, d), { recursive: true });
          spec.extras.forEach((x, n) => codexExtra(h.codex, x.kind, genId(x.id), n));
          const owner = new CodexAdapter(nodePorts({ env: h.ctx.env }));
          // The threads, the extras' ids, one absent id, and the parent the sub-agent threads name (it may have nothing else).
          const ids = [...h.ids, genId(20), genId(21), genId(22), genId(23), genId(999), '01a20000-0000-7000-8000-00000000ffff'];
          for (const id of ids) {
            expect(await owner.owns(id, h.ctx), `${id} ${JSON.stringify(spec)}`).toBe(await new CodexAdapter(nodePorts({ env: h.ctx.env })).hasArtifacts(id, h.ctx));
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: byTier(12, 30) },
    );
  });
});

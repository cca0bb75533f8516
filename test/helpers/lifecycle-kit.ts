// A lifecycle test bench: a real temp workspace, registry and home (agent artifacts on disk), a scripted in-process fake
// herdr and a fake process table sharing one virtual clock; started agents appear in the process table and leave it on exit.
import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeProjectKey } from '../../src/agents/claude/project-key.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { Ports } from '../../src/ports/index.js';
import { SessionLifecycle, type SessionLifecycleOptions } from '../../src/lifecycle/session-lifecycle.js';
import { SessionRegistry } from '../../src/registry/session-registry.js';
import { VirtualClock } from '../../src/testing/herdr/virtual-clock.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { makeTempDir } from './fs-temp.js';
import { ScriptedHerdr } from './lifecycle-herdr.js';

export const SELF = 500;

export interface LifecycleKit {
  ws: string;
  home: string;
  clock: VirtualClock;
  herdr: ScriptedHerdr;
  proc: FakeProcessTable;
  ports: Ports;
  registry: SessionRegistry;
  life(opts?: SessionLifecycleOptions): SessionLifecycle;
  /** A claude transcript of `id` in the workspace. */
  claudeTranscript(id: string): string;
  /** A hermes session row of `id` in `cwd` started at `startedAt` (seconds; default now). */
  hermesSession(id: string, startedAt?: number, cwd?: string): void;
  /** Op names of the herdr calls so far. */
  ops(): string[];
  dispose(): Promise<void>;
}

export async function lifecycleKit(env: Record<string, string> = {}): Promise<LifecycleKit> {
  const { dir, dispose } = await makeTempDir('mam-life-');
  const ws = join(dir, 'ws');
  const home = join(dir, 'home');
  mkdirSync(join(ws, '.mam'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const clock = new VirtualClock();
  const herdr = new ScriptedHerdr({ clock });
  const proc = new FakeProcessTable([], { self: { pid: SELF, argv: ['node', 'mam'], startedAtMs: 1_767_000_000_000, env: { HOME: home, ...env } } });
  herdr.onStart = (a) => proc.add({ pid: a.pid, ppid: 1, argv: [a.kind, ...a.argv], startedAtMs: clock.now() });
  herdr.onExit = (a) => void proc.kill(a.pid);
  const ports: Ports = { fs: new NodeFileSystem(), proc, herdr, clock };
  const registry = new SessionRegistry(ws, { ports });
  return {
    ws,
    home,
    clock,
    herdr,
    proc,
    ports,
    registry,
    life: (opts = {}) => new SessionLifecycle(ws, { ports, registry, timeouts: { readyMs: 2_000, captureMs: 3_000, exitMs: 5_000, pollMs: 100 }, ...opts }),
    claudeTranscript(id) {
      const d = join(home, '.claude', 'projects', claudeProjectKey(ws));
      mkdirSync(d, { recursive: true });
      const f = join(d, `${id}.jsonl`);
      writeFileSync(f, `${JSON.stringify({ sessionId: id, cwd: ws, type: 'user', timestamp: new Date(clock.now()).toISOString() })}\n`);
      return f;
    },
    hermesSession(id, startedAt = clock.now() / 1000, cwd = ws) {
      mkdirSync(join(home, '.hermes'), { recursive: true });
      const db = new Database(join(home, '.hermes', 'state.db'));
      try {
        db.exec('CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, cwd TEXT, started_at REAL, title TEXT)');
        db.exec('CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)');
        db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?)').run(id, cwd, startedAt, 'title');
        db.prepare('INSERT INTO messages (session_id, role, content) VALUES (?, ?, ?)').run(id, 'user', 'hello');
      } finally {
        db.close();
      }
    },
    ops: () => herdr.calls.map((c) => c.op),
    dispose,
  };
}

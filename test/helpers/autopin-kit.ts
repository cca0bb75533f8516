// An in-process world for AutoPin, reconcile and the loop: a real temp workspace and home (the registry, job records and
// agent databases are real files), herdr = FakeHerdr and the process table = FakeProcessTable, both on one FakeClock.
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JobEngine } from '../../src/jobs/index.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { Ports } from '../../src/ports/index.js';
import { SessionRegistry, type SessionRow } from '../../src/registry/index.js';
import { FakeClock } from '../../src/testing/fs/index.js';
import { FakeHerdr } from '../../src/testing/herdr/index.js';
import { FakeProcessTable } from '../../src/testing/process/index.js';

export const SELF_PID = 900;
export const EPOCH = 1_700_000_000;

export interface AutopinWorld {
  root: string;
  ws: string;
  home: string;
  clock: FakeClock;
  herdr: FakeHerdr;
  proc: FakeProcessTable;
  ports: Ports;
  registry: SessionRegistry;
  jobs: JobEngine;
  jobsDir: string;
  yamlPath: string;
  /** Adds hermes sessions (`[id, cwd, started_at seconds]`) to `<home>/.hermes/state.db`. */
  hermes(sessions: ReadonlyArray<readonly [string, string, number]>): void;
  /** Registers rows (replacing the registry's rows). */
  rows(rows: SessionRow[]): Promise<void>;
  row(name: string): Promise<SessionRow | undefined>;
  /** A job of `herdr:<name>` taken to `completed`; returns its id. */
  completedJob(name: string, agentSession?: string | null): Promise<string>;
  jobBytes(jobId: string): string;
  dispose(): Promise<void>;
}

export async function autopinWorld(tag: string): Promise<AutopinWorld> {
  const root = realpathSync(await mkdtemp(join(tmpdir(), `mam-autopin-${tag}-`)));
  const ws = join(root, 'ws');
  const home = join(root, 'home');
  for (const d of [join(ws, '.mam'), join(home, '.hermes')]) mkdirSync(d, { recursive: true });
  const clock = new FakeClock({ now: Date.UTC(2026, 10, 30, 1, 0, 0), autoAdvance: true });
  const herdr = new FakeHerdr({ clock });
  const proc = new FakeProcessTable([], { self: { pid: SELF_PID, argv: ['node', 'mam'], startedAtMs: clock.now() - 60_000, env: { HOME: home } } });
  const ports: Ports = { fs: new NodeFileSystem(), proc, herdr, clock };
  const registry = new SessionRegistry(ws, { ports });
  const jobsDir = join(ws, '.mam', 'jobs');
  const jobs = new JobEngine(jobsDir, { ports });
  return {
    root, ws, home, clock, herdr, proc, ports, registry, jobs, jobsDir,
    yamlPath: join(ws, '.mam', 'agent-sessions.yaml'),
    hermes(sessions) {
      const db = new Database(join(home, '.hermes', 'state.db'));
      try {
        db.exec('CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, cwd TEXT, started_at REAL, title TEXT)');
        db.exec('CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)');
        for (const [id, cwd, at] of sessions) db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?)').run(id, cwd, at, 't');
      } finally {
        db.close();
      }
    },
    async rows(rows) {
      await registry.update((d) => {
        d.herdr_sessions = rows;
      });
    },
    async row(name) {
      return (await registry.snapshot()).herdr_sessions.find((r) => r.name === name);
    },
    async completedJob(name, agentSession) {
      const job = await jobs.registerJob('do the task', { agentSession: agentSession === undefined ? `herdr:${name}` : agentSession });
      await jobs.transition(job.job_id, 'claim', { expectedStatus: 'pending' });
      await jobs.transition(job.job_id, 'completed', { expectedStatus: 'running' });
      return job.job_id;
    },
    jobBytes: (jobId) => readFileSync(join(jobsDir, `${jobId}.json`), 'utf8'),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
}

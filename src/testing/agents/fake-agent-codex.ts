import type { FakeAgentBaseLib } from './fake-agent-base.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent part: Codex 0.171 (post-discovered uuid v7). A rollout `sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl` whose first
 * record's payload has `id` and `cwd` (kept open, resume appends), a `threads` row in `state_5.sqlite` (WAL mode, kept open:
 * the rows live in `-wal` until the clean exit checkpoints), a shell snapshot per start, and `thread-writer-locks/<id>.lock`
 * held open while alive. Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentCodex(lib: FakeAgentBaseLib) {
  const VERSION = '0.171.0';
  const THREADS = `CREATE TABLE IF NOT EXISTS threads (
    id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, source TEXT NOT NULL,
    model_provider TEXT NOT NULL, cwd TEXT NOT NULL, title TEXT NOT NULL, sandbox_policy TEXT NOT NULL, approval_mode TEXT NOT NULL,
    tokens_used INTEGER NOT NULL DEFAULT 0, has_user_event INTEGER NOT NULL DEFAULT 0, archived INTEGER NOT NULL DEFAULT 0,
    archived_at INTEGER, git_sha TEXT, git_branch TEXT, git_origin_url TEXT, cli_version TEXT NOT NULL DEFAULT '',
    first_user_message TEXT NOT NULL DEFAULT '', model TEXT, created_at_ms INTEGER, updated_at_ms INTEGER,
    preview TEXT NOT NULL DEFAULT '', recency_at INTEGER NOT NULL DEFAULT 0, recency_at_ms INTEGER NOT NULL DEFAULT 0)`;
  const SCHEMA = [
    THREADS,
    'CREATE INDEX IF NOT EXISTS idx_threads_archived_cwd_updated_at_ms ON threads(archived, cwd, updated_at_ms DESC, id DESC)',
    `CREATE TABLE IF NOT EXISTS thread_dynamic_tools (thread_id TEXT NOT NULL, position INTEGER NOT NULL, name TEXT NOT NULL,
      description TEXT NOT NULL, input_schema TEXT NOT NULL, PRIMARY KEY(thread_id, position))`,
    `CREATE TABLE IF NOT EXISTS backfill_state (id INTEGER PRIMARY KEY CHECK (id = 1), status TEXT NOT NULL, last_watermark TEXT,
      last_success_at INTEGER, updated_at INTEGER NOT NULL)`,
  ];

  function pad(n: number): string {
    return String(n).padStart(2, '0');
  }

  // Codex names a rollout by the local time it started.
  function rolloutPath(run: FakeAgentRun, home: string, id: string): string {
    const d = new Date(run.mods.now());
    const day = [String(d.getFullYear()), pad(d.getMonth() + 1), pad(d.getDate())];
    const stamp = `${day.join('-')}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;
    return run.mods.path.join(home, 'sessions', ...day, `rollout-${stamp}-${id}.jsonl`);
  }

  function findRollout(run: FakeAgentRun, home: string, id: string): string | null {
    const { fs, path } = run.mods;
    const walk = (dir: string, depth: number): string | null => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return null;
      }
      for (const e of entries) {
        const p = path.join(dir, e.name);
        if (e.isFile() && e.name.startsWith('rollout-') && e.name.endsWith(`-${id}.jsonl`)) return p;
        if (e.isDirectory() && depth < 3) {
          const hit = walk(p, depth + 1);
          if (hit !== null) return hit;
        }
      }
      return null;
    };
    return walk(path.join(home, 'sessions'), 0);
  }

  function snapshot(run: FakeAgentRun, home: string, id: string): void {
    const nanos = `${run.mods.now()}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
    const env = run.mods.env;
    // A real snapshot holds the whole environment, API keys included: this one carries a fake key to prove a purge takes it.
    const text = ['# Snapshot file', '# Unset all aliases to avoid conflicts with functions', 'unalias -a 2>/dev/null || true',
      `export HOME=${JSON.stringify(env['HOME'] ?? '')}`, `export PATH=${JSON.stringify(env['PATH'] ?? '')}`, "export OPENAI_API_KEY='sk-fake-sandbox-secret'", ''];
    lib.base.writeAtomic(run, run.mods.path.join(home, 'shell_snapshots', `${id}.${nanos}.sh`), text.join('\n'));
  }

  function start(run: FakeAgentRun): FakeAgentStarted {
    const { fs, path } = run.mods;
    if (run.args.sessionId !== null) throw lib.base.exit(2, "error: unexpected argument '--session-id' found (codex chooses its own thread id)");
    const home = lib.base.dirFor(run, 'CODEX_HOME', '.codex');
    const cwd = fs.realpathSync(run.mods.cwd);
    const now = run.mods.now();
    const at = lib.base.iso(run);
    let id: string;
    let rollout: string;
    const resumed = run.args.resume !== null;
    if (resumed) {
      id = lib.base.checkId('codex', run.args.resume as string);
      const found = findRollout(run, home, id);
      if (found === null) throw lib.base.exit(1, `Error: No saved session found with ID ${id}`);
      rollout = found;
    } else {
      id = lib.base.uuidV7(run);
      rollout = rolloutPath(run, home, id);
      const meta = { id, session_id: id, timestamp: at, cwd, originator: 'codex_cli_rs', cli_version: VERSION, source: 'cli', model_provider: 'openai' };
      lib.base.appendLines(run, rollout, [{ timestamp: at, type: 'session_meta', payload: meta }]);
    }
    const rolloutFd = fs.openSync(rollout, 'a');
    fs.writeSync(rolloutFd, `${JSON.stringify({ timestamp: at, type: 'turn_context', payload: { cwd, approval_policy: 'on-request', model: 'gpt-fake' } })}\n`);
    const Database = run.mods.database();
    const db = new Database(path.join(lib.base.mkdirp(run, home), 'state_5.sqlite'));
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    for (const sql of SCHEMA) db.exec(sql);
    db.prepare("INSERT OR IGNORE INTO backfill_state (id, status, last_success_at, updated_at) VALUES (1, 'complete', ?, ?)").run(Math.floor(now / 1000), Math.floor(now / 1000));
    if (resumed) {
      db.prepare('UPDATE threads SET updated_at = ?, updated_at_ms = ?, recency_at = ?, recency_at_ms = ? WHERE id = ?').run(Math.floor(now / 1000), now, Math.floor(now / 1000), now, id);
    } else {
      db.prepare(`INSERT INTO threads (id, rollout_path, created_at, updated_at, source, model_provider, cwd, title, sandbox_policy, approval_mode,
        cli_version, first_user_message, model, created_at_ms, updated_at_ms, preview, recency_at, recency_at_ms)
        VALUES (?, ?, ?, ?, 'cli', 'openai', ?, 'fake codex thread', '{"type":"workspace-write"}', 'on-request', ?, 'start', 'gpt-fake', ?, ?, 'start', ?, ?)`)
        .run(id, rollout, Math.floor(now / 1000), Math.floor(now / 1000), cwd, VERSION, now, now, Math.floor(now / 1000), now);
    }
    snapshot(run, home, id);
    const lockFd = fs.openSync(path.join(lib.base.mkdirp(run, path.join(home, 'thread-writer-locks')), `${id}.lock`), 'w');
    return {
      id,
      cleanup: () => {
        // A clean exit checkpoints the WAL (the sidecars go) and releases the writer lock; the lock file itself stays.
        for (const fd of [rolloutFd, lockFd]) {
          try {
            fs.closeSync(fd);
          } catch {
            // Already closed.
          }
        }
        db.close();
      },
    };
  }

  return { start };
}

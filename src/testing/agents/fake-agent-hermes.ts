import type { FakeAgentLib } from './fake-agent-core.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent parts: Hermes (post-discovered uuid; a `sessions` row with `cwd`, `started_at` seconds and `ended_at` null
 * while it lives, and a message, in the shared `<home>/.hermes/state.db`, held open while alive; a clean exit closes the
 * session, `ended_at` set, as Hermes does) and Grok (pre-assigned uuid; nothing on disk is known, so it only stays alive).
 * Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentHermes(lib: FakeAgentLib) {
  const SCHEMA = [
    'CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, cwd TEXT, started_at REAL, title TEXT, ended_at REAL, end_reason TEXT)',
    'CREATE TABLE IF NOT EXISTS messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT)',
  ];

  function startHermes(run: FakeAgentRun): FakeAgentStarted {
    if (run.args.sessionId !== null) throw lib.base.exit(2, 'hermes: unknown option --session-id (hermes chooses its own session id)');
    const { fs, path } = run.mods;
    const root = lib.base.mkdirp(run, lib.base.dirFor(run, 'HERMES_HOME', '.hermes'));
    const cwd = fs.realpathSync(run.mods.cwd);
    const Database = run.mods.database();
    const db = new Database(path.join(root, 'state.db'));
    let id: string;
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
      for (const sql of SCHEMA) db.exec(sql);
      if (run.args.resume !== null) {
        id = lib.base.checkId('hermes', run.args.resume);
        if (db.prepare('SELECT 1 FROM sessions WHERE id = ?').get(id) === undefined) throw lib.base.exit(1, `hermes: no session ${id}`);
      } else {
        id = run.mods.crypto.randomUUID();
        db.prepare('INSERT INTO sessions (id, cwd, started_at, title) VALUES (?, ?, ?, ?)').run(id, cwd, run.mods.now() / 1000, 'fake hermes session');
      }
      db.prepare("INSERT INTO messages (session_id, role, content) VALUES (?, 'user', ?)").run(id, run.args.resume === null ? 'start' : 'resumed');
    } catch (err) {
      db.close();
      throw err;
    }
    const hasEnd = (db.prepare("SELECT count(*) FROM pragma_table_info('sessions') WHERE name = 'ended_at'").pluck().get() as number) > 0;
    if (hasEnd) db.prepare('UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = ?').run(id);
    // The shared database stays open while the session lives (a holder counts while the session is open); a clean exit
    // closes the session (`ended_at`, `end_reason`), then the database.
    const cleanup = (): void => {
      try {
        if (hasEnd) db.prepare("UPDATE sessions SET ended_at = ?, end_reason = 'cli_close' WHERE id = ?").run(run.mods.now() / 1000, id);
      } finally {
        db.close();
      }
    };
    return { id, cleanup };
  }

  function startGrok(run: FakeAgentRun): FakeAgentStarted {
    const given = run.args.resume ?? run.args.sessionId;
    return { id: given === null ? run.mods.crypto.randomUUID() : lib.base.checkId('grok', given), cleanup: () => undefined };
  }

  return { startHermes, startGrok };
}

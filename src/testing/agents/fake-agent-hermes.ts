import type { FakeAgentBaseLib } from './fake-agent-base.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent parts: Hermes (post-discovered uuid; a `sessions` row with `cwd`, `started_at` seconds and `ended_at` null
 * while it lives, and a message, in the shared `<home>/.hermes/state.db`, held open while alive; a clean exit closes the
 * session, `ended_at` set, as Hermes does) and Grok (pre-assigned uuid; the session dir, prompt history and
 * `active_sessions.json` entry grok-build writes).
 * Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentHermes(lib: FakeAgentBaseLib) {
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

  // grok-build's bucket: the URL-encoded cwd; past 255 bytes grok hashes it (blake3), the fake uses sha256 the same way.
  function grokBucket(run: FakeAgentRun, cwd: string): { name: string; long: boolean } {
    let name = '';
    for (const byte of Buffer.from(cwd, 'utf8')) {
      const ch = String.fromCharCode(byte);
      name += byte < 0x80 && /[A-Za-z0-9\-_.~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    }
    if (name.length <= 255) return { name, long: false };
    const leaf = (cwd.split('/').pop() ?? '').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 40) || 'workspace';
    return { name: `${leaf}-${run.mods.crypto.createHash('sha256').update(cwd).digest('hex').slice(0, 16)}`, long: true };
  }

  function grokActive(run: FakeAgentRun, root: string, update: (list: Array<Record<string, unknown>>) => Array<Record<string, unknown>>): void {
    const file = run.mods.path.join(root, 'active_sessions.json');
    let list: Array<Record<string, unknown>> = [];
    try {
      const parsed: unknown = JSON.parse(run.mods.fs.readFileSync(file, 'utf8'));
      if (Array.isArray(parsed)) list = parsed as Array<Record<string, unknown>>;
    } catch {
      list = [];
    }
    lib.base.writeAtomic(run, file, JSON.stringify(update(list), null, 2));
  }

  // Grok (pre-assigned uuid, `--session-id` for a new session only): the layout grok-build writes, in short — the session
  // dir `sessions/<bucket>/<id>/` (summary.json, updates.jsonl, chat_history.jsonl, summary.json.lock), the bucket's
  // prompt_history.jsonl, and an active_sessions.json entry while alive (removed on a clean exit).
  function startGrok(run: FakeAgentRun): FakeAgentStarted {
    const { fs, path } = run.mods;
    const root = lib.base.mkdirp(run, lib.base.dirFor(run, 'GROK_HOME', '.grok'));
    const cwd = fs.realpathSync(run.mods.cwd);
    const bucket = grokBucket(run, cwd);
    const bucketDir = lib.base.mkdirp(run, path.join(root, 'sessions', bucket.name));
    if (bucket.long && !fs.existsSync(path.join(bucketDir, '.cwd'))) fs.writeFileSync(path.join(bucketDir, '.cwd'), cwd, { mode: 0o600 });
    const given = run.args.resume ?? run.args.sessionId;
    const id = given === null ? lib.base.uuidV7(run) : lib.base.checkId('grok', given);
    const dir = path.join(bucketDir, id);
    const summaryFile = path.join(dir, 'summary.json');
    const now = lib.base.iso(run);
    let created = now;
    if (run.args.resume !== null) {
      if (!fs.existsSync(summaryFile)) throw lib.base.exit(1, `grok: no session ${id}`);
      created = String((JSON.parse(fs.readFileSync(summaryFile, 'utf8')) as Record<string, unknown>)['created_at'] ?? now);
    } else if (fs.existsSync(dir)) throw lib.base.exit(1, `grok: session id ${id} is already in use`);
    lib.base.mkdirp(run, dir);
    const prompt = run.args.resume === null ? 'start' : 'resumed';
    const summary = { info: { id, cwd }, session_summary: 'fake grok session', created_at: created, updated_at: now, num_messages: 1, num_chat_messages: 1, current_model_id: 'grok-fake', next_trace_turn: 1, chat_format_version: 1, grok_home: root, last_active_at: now };
    lib.base.writeAtomic(run, summaryFile, JSON.stringify(summary, null, 2));
    fs.writeFileSync(path.join(dir, 'summary.json.lock'), '', { flag: 'a', mode: 0o600 });
    const update = { sessionId: id, update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: prompt } }, _meta: { eventId: `${id}-1`, agentTimestampMs: run.mods.now() } };
    lib.base.appendLines(run, path.join(dir, 'updates.jsonl'), [{ timestamp: Math.floor(run.mods.now() / 1000), method: 'session/update', params: update }]);
    lib.base.appendLines(run, path.join(dir, 'chat_history.jsonl'), [{ type: 'user', content: [{ type: 'text', text: prompt }], prompt_index: 0 }]);
    lib.base.appendLines(run, path.join(bucketDir, 'prompt_history.jsonl'), [{ timestamp: now, session_id: id, prompt, is_bash: false }]);
    grokActive(run, root, (list) => [...list.filter((e) => e['session_id'] !== id), { session_id: id, pid: run.mods.pid, cwd, opened_at: now }]);
    return { id, cleanup: () => grokActive(run, root, (list) => list.filter((e) => e['session_id'] !== id)) };
  }

  return { startHermes, startGrok };
}

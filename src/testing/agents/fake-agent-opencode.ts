import type { FakeAgentBaseLib } from './fake-agent-base.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent part: OpenCode 1.18 (post-discovered `ses_…` ids). Rows in the shared `opencode.db` (the 1.x schema: `project`,
 * `session` with `directory` = cwd, `message`, `part`, `event_sequence`, …), WAL mode, kept open while alive and, as the real
 * CLI does, never checkpointed on exit; plus `debug paths` (1.x: no `db` line) and `session delete <id>`. Self-contained,
 * see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentOpencode(lib: FakeAgentBaseLib) {
  const VERSION = '1.18.33';
  const SCHEMA = [
    'CREATE TABLE IF NOT EXISTS `project` (`id` text PRIMARY KEY, `worktree` text NOT NULL, `vcs` text, `name` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_initialized` integer, `sandboxes` text NOT NULL)',
    'CREATE TABLE IF NOT EXISTS `session` (`id` text PRIMARY KEY, `project_id` text NOT NULL, `workspace_id` text, `parent_id` text, `slug` text NOT NULL, `directory` text NOT NULL, `path` text, `title` text NOT NULL, `version` text NOT NULL, `share_url` text, `agent` text, `model` text, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `time_archived` integer, CONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE)',
    'CREATE INDEX IF NOT EXISTS `session_project_idx` ON `session` (`project_id`)',
    'CREATE INDEX IF NOT EXISTS `session_parent_idx` ON `session` (`parent_id`)',
    'CREATE TABLE IF NOT EXISTS `message` (`id` text PRIMARY KEY, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL, CONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE)',
    'CREATE TABLE IF NOT EXISTS `part` (`id` text PRIMARY KEY, `message_id` text NOT NULL, `session_id` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, `data` text NOT NULL, CONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE)',
    'CREATE TABLE IF NOT EXISTS `todo` (`session_id` text NOT NULL, `content` text NOT NULL, `status` text NOT NULL, `priority` text NOT NULL, `position` integer NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL, CONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`))',
    'CREATE TABLE IF NOT EXISTS `session_share` (`session_id` text PRIMARY KEY, `id` text NOT NULL, `secret` text NOT NULL, `url` text NOT NULL, `time_created` integer NOT NULL, `time_updated` integer NOT NULL)',
    'CREATE TABLE IF NOT EXISTS `event_sequence` (`aggregate_id` text PRIMARY KEY, `seq` integer NOT NULL, `owner_id` text)',
    'CREATE TABLE IF NOT EXISTS `event` (`id` text PRIMARY KEY, `aggregate_id` text NOT NULL, `seq` integer NOT NULL, `type` text NOT NULL, `data` text NOT NULL)',
  ];
  // Every table naming a session, and its column: a delete removes them all (1.x cascades only with foreign_keys=ON).
  const OWNED: ReadonlyArray<[string, string]> = [
    ['part', 'session_id'], ['message', 'session_id'], ['todo', 'session_id'], ['session_share', 'session_id'],
    ['event', 'aggregate_id'], ['event_sequence', 'aggregate_id'], ['session', 'id'],
  ];

  function dataDir(run: FakeAgentRun): string {
    return lib.base.dirFor(run, 'XDG_DATA_HOME', '.local/share/opencode', 'opencode');
  }

  function open(run: FakeAgentRun) {
    const Database = run.mods.database();
    const db = new Database(run.mods.path.join(lib.base.mkdirp(run, dataDir(run)), 'opencode.db'));
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    for (const sql of SCHEMA) db.exec(sql);
    return db;
  }

  /** `debug paths` and `session delete <id>`; undefined for anything else (an interactive start). */
  function command(run: FakeAgentRun, out: (text: string) => void): number | undefined {
    const [a, b, c] = run.args.positional;
    if (a === 'debug' && b === 'paths') {
      const { path } = run.mods;
      const data = dataDir(run);
      const home = path.resolve(run.config.home);
      const rows: Array<[string, string]> = [['home', home], ['data', data], ['bin', path.join(data, 'bin')], ['log', path.join(data, 'log')],
        ['cache', path.join(home, '.cache', 'opencode')], ['config', path.join(home, '.config', 'opencode')], ['state', path.join(home, '.local', 'state', 'opencode')]];
      out(rows.map(([k, v]) => `${k.padEnd(10)} ${v}\n`).join(''));
      return 0;
    }
    if (a === 'session' && b === 'delete') {
      const id = lib.base.checkId('opencode', c ?? '');
      const db = open(run);
      try {
        if (db.prepare('SELECT 1 FROM `session` WHERE id = ?').get(id) === undefined) throw lib.base.exit(1, `Error: Session not found: ${id}`);
        db.transaction(() => {
          for (const [table, column] of OWNED) db.prepare(`DELETE FROM \`${table}\` WHERE \`${column}\` = ?`).run(id);
        })();
      } finally {
        db.close();
      }
      out(`Deleted session ${id}\n`);
      return 0;
    }
    return undefined;
  }

  function start(run: FakeAgentRun): FakeAgentStarted {
    if (run.args.sessionId !== null) throw lib.base.exit(2, 'error: unknown option --session-id (opencode chooses its own session id)');
    const cwd = run.mods.fs.realpathSync(run.mods.cwd);
    const now = run.mods.now();
    const db = open(run);
    let id: string;
    if (run.args.resume !== null) {
      id = lib.base.checkId('opencode', run.args.resume);
      if (db.prepare('SELECT 1 FROM `session` WHERE id = ?').get(id) === undefined) throw lib.base.exit(1, `Error: Session not found: ${id}`);
      db.prepare('UPDATE `session` SET time_updated = ? WHERE id = ?').run(now, id);
    } else {
      id = lib.base.opencodeId(run);
      const msg = `msg_${id.slice(4)}`;
      db.transaction(() => {
        db.prepare("INSERT OR IGNORE INTO `project` (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES ('global', '/', NULL, ?, ?, '[]')").run(now, now);
        db.prepare("INSERT INTO `session` (id, project_id, slug, directory, path, title, version, agent, time_created, time_updated) VALUES (?, 'global', 'fake-session', ?, '', ?, ?, 'build', ?, ?)")
          .run(id, cwd, `New session - ${lib.base.iso(run)}`, VERSION, now, now);
        db.prepare("INSERT INTO `message` (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, '{\"role\":\"user\"}')").run(msg, id, now, now);
        db.prepare("INSERT INTO `part` (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, '{\"type\":\"text\",\"text\":\"start\"}')")
          .run(`prt_${id.slice(4)}`, msg, id, now, now);
        db.prepare('INSERT INTO `event_sequence` (aggregate_id, seq) VALUES (?, 1)').run(id);
        db.prepare("INSERT INTO `event` (id, aggregate_id, seq, type, data) VALUES (?, ?, 1, 'session.created', ?)").run(`evt_${id.slice(4)}`, id, JSON.stringify({ id }));
      })();
    }
    // The database stays open while the TUI lives (the closure keeps it); its WAL is not checkpointed on exit (1.18.33).
    return { id, cleanup: () => void db.open };
  }

  return { command, start };
}

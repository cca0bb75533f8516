import type { FakeAgentBaseLib } from './fake-agent-base.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent part: the Antigravity CLI (post-discovered uuid), on the real layout. Under
 * `<GEMINI_HOME or home/.gemini>/antigravity-cli/`: the conversation database `conversations/<id>.db` with agy's GORM
 * tables, its `trajectory_meta` row and the `trajectory_metadata_blob` record of its workspace (protobuf fields 1 → 1 and
 * 7, a `file://` URI), a step per start or resume, `brain/<id>/`, `presence/<id>.lock` held open while alive, a
 * `history.jsonl` line (the first prompt carries no id), and the shared `cache/last_conversations.json` mapping
 * realpath(cwd) → id. Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentAgy(lib: FakeAgentBaseLib) {
  const SCHEMA = [
    'CREATE TABLE IF NOT EXISTS `trajectory_meta` (`trajectory_id` text,`cascade_id` text,`trajectory_type` integer,`source` integer,PRIMARY KEY (`trajectory_id`))',
    'CREATE TABLE IF NOT EXISTS `steps` (`idx` integer,`step_type` integer NOT NULL DEFAULT 0,`status` integer NOT NULL DEFAULT 0,`has_subtrajectory` numeric NOT NULL DEFAULT false,`metadata` blob,`error_details` blob,`permissions` blob,`task_details` blob,`render_info` blob,`step_payload` blob,`step_format` integer NOT NULL DEFAULT 0,PRIMARY KEY (`idx`))',
    'CREATE TABLE IF NOT EXISTS `gen_metadata` (`idx` integer,`data` blob,`size` integer NOT NULL DEFAULT 0,PRIMARY KEY (`idx`))',
    'CREATE TABLE IF NOT EXISTS `executor_metadata` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
    'CREATE TABLE IF NOT EXISTS `parent_references` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
    'CREATE TABLE IF NOT EXISTS `trajectory_metadata_blob` (`id` text DEFAULT "main",`data` blob,PRIMARY KEY (`id`))',
    'CREATE TABLE IF NOT EXISTS `battle_mode_infos` (`idx` integer,`data` blob,PRIMARY KEY (`idx`))',
  ];

  // One length-delimited protobuf field (field numbers and lengths below 128 need one byte each; longer ones more).
  function varint(n: number): number[] {
    const out: number[] = [];
    let x = n;
    while (x >= 0x80) {
      out.push((x & 0x7f) | 0x80);
      x = Math.floor(x / 128);
    }
    out.push(x);
    return out;
  }
  function field(n: number, bytes: Uint8Array | number[]): number[] {
    return [...varint(n * 8 + 2), ...varint(bytes.length), ...bytes];
  }

  // CortexTrajectoryMetadata: workspaces[] (1 → 1 workspace_folder_absolute_uri), workspace_uris[] (7), project_id (18).
  function metadataBlob(uri: string): Uint8Array {
    const text = (s: string): number[] => Array.from(new TextEncoder().encode(s));
    return Uint8Array.from([...field(1, field(1, text(uri))), ...field(7, text(uri)), ...field(18, text('default-cli-project'))]);
  }
  function readCache(run: FakeAgentRun, file: string): Record<string, unknown> {
    try {
      const parsed: unknown = JSON.parse(run.mods.fs.readFileSync(file, 'utf8'));
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }

  function start(run: FakeAgentRun): FakeAgentStarted {
    const { fs, path } = run.mods;
    if (run.args.sessionId !== null) throw lib.base.exit(2, 'agy: unknown flag --session-id (agy chooses its own conversation id)');
    const gh = run.mods.env['GEMINI_HOME'];
    const gemini = gh !== undefined && path.isAbsolute(gh) ? gh : path.join(path.resolve(run.config.home), '.gemini');
    const root = path.join(gemini, 'antigravity-cli');
    const cwd = fs.realpathSync(run.mods.cwd);
    let id: string;
    const dbPath = (i: string): string => path.join(root, 'conversations', `${i}.db`);
    if (run.args.resume !== null) {
      id = lib.base.checkId('agy', run.args.resume);
      if (!fs.existsSync(dbPath(id))) throw lib.base.exit(1, `agy: conversation ${id} not found`);
    } else {
      id = run.mods.crypto.randomUUID();
    }
    lib.base.mkdirp(run, path.join(root, 'conversations'));
    const Database = run.mods.database();
    const db = new Database(dbPath(id));
    try {
      db.pragma('busy_timeout = 5000');
      db.pragma('journal_mode = WAL');
      for (const sql of SCHEMA) db.exec(sql);
      db.prepare('INSERT OR IGNORE INTO trajectory_meta VALUES (?, ?, 4, 17)').run(id, id);
      const uri = `file://${cwd.split('/').map(encodeURIComponent).join('/')}`;
      db.prepare("INSERT OR IGNORE INTO trajectory_metadata_blob (id, data) VALUES ('main', ?)").run(metadataBlob(uri));
      const next = (db.prepare('SELECT coalesce(max(idx) + 1, 0) FROM steps').pluck().get() as number) ?? 0;
      db.prepare('INSERT INTO steps (idx, step_type, status) VALUES (?, 14, 3)').run(next);
    } finally {
      db.close();
    }
    const brain = lib.base.mkdirp(run, path.join(root, 'brain', id));
    fs.writeFileSync(path.join(brain, 'task.md'), `# ${cwd}\n`, { mode: 0o600 });
    const lockFd = fs.openSync(path.join(lib.base.mkdirp(run, path.join(root, 'presence')), `${id}.lock`), 'w');
    const line = { display: run.args.resume === null ? 'start' : 'resume', timestamp: run.mods.now(), workspace: cwd, ...(run.args.resume === null ? {} : { conversationId: id }) };
    fs.appendFileSync(path.join(root, 'history.jsonl'), `${JSON.stringify(line)}\n`, { mode: 0o600 });
    const cacheFile = path.join(root, 'cache', 'last_conversations.json');
    lib.base.writeAtomic(run, cacheFile, JSON.stringify({ ...readCache(run, cacheFile), [cwd]: id }));
    return {
      id,
      cleanup: () => {
        // The presence lock is released; the file stays, like every other artifact.
        try {
          fs.closeSync(lockFd);
        } catch {
          // Already closed.
        }
      },
    };
  }

  return { start };
}

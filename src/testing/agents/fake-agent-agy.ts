import type { FakeAgentLib } from './fake-agent-core.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent part: the Antigravity CLI (post-discovered uuid). Under `<home>/.gemini/antigravity-cli/`: the conversation
 * database `conversations/<id>.db`, `brain/<id>/`, `presence/<id>.lock` held open while alive, and the shared
 * `cache/last_conversations.json` mapping realpath(cwd) → id. Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentAgy(lib: FakeAgentLib) {
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
    const root = path.join(path.resolve(run.config.home), '.gemini', 'antigravity-cli');
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
      db.exec('CREATE TABLE IF NOT EXISTS steps (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, created_at INTEGER NOT NULL)');
      db.prepare('INSERT INTO steps (kind, created_at) VALUES (?, ?)').run(run.args.resume === null ? 'start' : 'resume', run.mods.now());
    } finally {
      db.close();
    }
    const brain = lib.base.mkdirp(run, path.join(root, 'brain', id));
    fs.writeFileSync(path.join(brain, 'task.md'), `# ${cwd}\n`, { mode: 0o600 });
    const lockFd = fs.openSync(path.join(lib.base.mkdirp(run, path.join(root, 'presence')), `${id}.lock`), 'w');
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

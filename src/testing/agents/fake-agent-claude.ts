import type { FakeAgentBaseLib } from './fake-agent-base.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent part: Claude Code 2.1 (pre-assigned uuid v4). A transcript `projects/<key>/<id>.jsonl` whose records carry
 * `sessionId`, `cwd` and `timestamp`, `session-env/<id>/`, and a live-session file `sessions/<pid>.json` (pid, sessionId,
 * cwd, startedAt ms, procStart) that a clean exit removes. Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentClaude(lib: FakeAgentBaseLib) {
  const VERSION = '2.1.197';

  function records(run: FakeAgentRun, id: string, cwd: string, text: string): unknown[] {
    const at = lib.base.iso(run);
    const { randomUUID } = run.mods.crypto;
    const common = { isSidechain: false, userType: 'external', entrypoint: 'cli', cwd, sessionId: id, version: VERSION };
    const user = randomUUID();
    return [
      { type: 'queue-operation', operation: 'enqueue', timestamp: at, sessionId: id, content: text },
      { type: 'queue-operation', operation: 'dequeue', timestamp: at, sessionId: id },
      { parentUuid: null, type: 'user', message: { role: 'user', content: text }, uuid: user, timestamp: at, ...common },
      { parentUuid: user, type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, uuid: randomUUID(), timestamp: at, ...common },
    ];
  }

  function start(run: FakeAgentRun): FakeAgentStarted {
    const { fs, path } = run.mods;
    const config = lib.base.dirFor(run, 'CLAUDE_CONFIG_DIR', '.claude');
    const cwd = fs.realpathSync(run.mods.cwd);
    const keyDir = path.join(config, 'projects', lib.base.claudeProjectKey(cwd));
    let id: string;
    if (run.args.resume !== null) {
      id = lib.base.checkId('claude', run.args.resume);
      if (!fs.existsSync(path.join(keyDir, `${id}.jsonl`))) throw lib.base.exit(1, `No conversation found with session ID: ${id}`);
    } else if (run.args.sessionId !== null) {
      id = lib.base.checkId('claude', run.args.sessionId);
      if (fs.existsSync(path.join(keyDir, `${id}.jsonl`))) throw lib.base.exit(1, `Error: Session ID ${id} is already in use.`);
    } else {
      id = run.mods.crypto.randomUUID();
    }
    lib.base.appendLines(run, path.join(keyDir, `${id}.jsonl`), records(run, id, cwd, run.args.resume === null ? 'start' : 'resumed'));
    lib.base.mkdirp(run, path.join(config, 'session-env', id));
    const sessionFile = path.join(config, 'sessions', `${run.mods.pid}.json`);
    const procStart = lib.base.procStart(run, run.mods.pid);
    const record = {
      pid: run.mods.pid, sessionId: id, cwd, startedAt: run.mods.now(), ...(procStart === null ? {} : { procStart }),
      version: VERSION, kind: 'interactive', entrypoint: 'cli',
    };
    lib.base.writeAtomic(run, sessionFile, JSON.stringify(record));
    return {
      id,
      cleanup: () => {
        try {
          fs.unlinkSync(sessionFile);
        } catch {
          // Already gone.
        }
      },
    };
  }

  return { start };
}

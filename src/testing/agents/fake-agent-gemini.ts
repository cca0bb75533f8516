import type { FakeAgentBaseLib } from './fake-agent-base.js';
import type { FakeAgentRun, FakeAgentStarted } from './fake-agent-types.js';

/**
 * Fake agent part: Gemini CLI 0.61 (pre-assigned uuid v4, `--session-id`, `--resume <id>`). `projects.json` naming the
 * cwd's short name, `tmp/<short>/.project_root`, and the chat file `tmp/<short>/chats/session-<time>-<8 hex>.jsonl` whose
 * first line names the id; a resume appends a second metadata line to it, and an id without a chat file exits 42 as the
 * real CLI does. Self-contained, see {@link fakeAgentBase}.
 * @public
 */
export function fakeAgentGemini(lib: FakeAgentBaseLib) {
  function shortFor(cwd: string, projects: Record<string, unknown>, basename: string): string {
    const known = projects[cwd];
    if (typeof known === 'string') return known;
    const base = basename.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'project';
    const used = new Set(Object.values(projects));
    let name = base;
    for (let n = 1; used.has(name); n += 1) name = `${base}-${n}`;
    return name;
  }

  function chatOf(run: FakeAgentRun, chats: string, id: string): string | null {
    const { fs, path } = run.mods;
    let names: string[];
    try {
      names = fs.readdirSync(chats);
    } catch {
      return null;
    }
    for (const n of names.filter((x) => x.endsWith('.jsonl')).sort()) {
      try {
        const first = JSON.parse(fs.readFileSync(path.join(chats, n), 'utf8').split('\n')[0] ?? '') as { sessionId?: unknown };
        if (first.sessionId === id) return path.join(chats, n);
      } catch {
        // Not a chat file.
      }
    }
    return null;
  }

  function start(run: FakeAgentRun): FakeAgentStarted {
    const { fs, path } = run.mods;
    const root = lib.base.mkdirp(run, lib.base.dirFor(run, 'GEMINI_CLI_HOME', '.gemini', '.gemini'));
    const cwd = fs.realpathSync(run.mods.cwd);
    const projectsFile = path.join(root, 'projects.json');
    let projects: Record<string, unknown> = {};
    try {
      const parsed = (JSON.parse(fs.readFileSync(projectsFile, 'utf8')) as { projects?: unknown }).projects;
      if (typeof parsed === 'object' && parsed !== null) projects = parsed as Record<string, unknown>;
    } catch {
      // None yet.
    }
    const short = shortFor(cwd, projects, path.basename(cwd));
    if (projects[cwd] !== short) lib.base.writeAtomic(run, projectsFile, JSON.stringify({ projects: { ...projects, [cwd]: short } }, null, 2));
    const dir = lib.base.mkdirp(run, path.join(root, 'tmp', short));
    fs.writeFileSync(path.join(dir, '.project_root'), cwd, { mode: 0o600 });
    const chats = path.join(dir, 'chats');
    const at = lib.base.iso(run);
    const given = run.args.resume ?? run.args.sessionId;
    const id = given === null ? run.mods.crypto.randomUUID() : lib.base.checkId('gemini', given);
    let file = chatOf(run, chats, id);
    if (run.args.resume !== null && file === null) throw lib.base.exit(42, `Error resuming session: Invalid session identifier "${id}"`);
    if (run.args.resume === null && file !== null) throw lib.base.exit(1, `gemini: session id ${id} is already in use`);
    file ??= path.join(chats, `session-${at.slice(0, 16).replace(':', '-')}-${id.slice(0, 8)}.jsonl`);
    const hash = run.mods.crypto.createHash('sha256').update(cwd).digest('hex');
    const text = run.args.resume === null ? 'start' : 'resumed';
    lib.base.appendLines(run, file, [
      { sessionId: id, projectHash: hash, startTime: at, lastUpdated: at, kind: 'main' },
      { id: run.mods.crypto.randomUUID(), timestamp: at, type: 'user', content: [{ text }] },
      { $set: { lastUpdated: at } },
    ]);
    return { id, cleanup: () => undefined };
  }

  return { start };
}

import type { FakeAgentArgs, FakeAgentExit, FakeAgentRun } from './fake-agent-types.js';

/**
 * Fake agent part: argv, ids, paths and small file helpers shared by every agent.
 *
 * Like every `fakeAgent*` part, this function is self-contained (no imports, no module scope): the fake agent executable
 * embeds its source text, and the parts reach their effects only through {@link FakeAgentMods}.
 * @public
 */
export function fakeAgentBase(_lib: object) {
  const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
  const OPENCODE_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
  const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
  const RESUME_FLAGS = ['--resume', '-r', '--session', '--conversation'];

  function exit(code: number, message: string): FakeAgentExit {
    return { fakeAgentExit: code, message };
  }

  /** `--flag value` and `--flag=value` for the id options; every other option is accepted and ignored. */
  function parseArgs(agent: string, argv: readonly string[]): FakeAgentArgs {
    const out: FakeAgentArgs = { version: false, sessionId: null, resume: null, positional: [] };
    for (let i = 0; i < argv.length; i += 1) {
      const a = argv[i] as string;
      const eq = a.startsWith('--') ? a.indexOf('=') : -1;
      const name = eq === -1 ? a : a.slice(0, eq);
      const takeValue = (): string => {
        if (eq !== -1) return a.slice(eq + 1);
        const v = argv[i + 1];
        if (v === undefined) throw exit(2, `${agent}: option ${name} needs a value`);
        i += 1;
        return v;
      };
      if (a === '--') {
        out.positional.push(...argv.slice(i + 1));
        break;
      }
      if (a === '--version') out.version = true;
      else if (name === '--session-id') out.sessionId = takeValue();
      else if (RESUME_FLAGS.includes(name)) out.resume = takeValue();
      else if (!a.startsWith('-')) out.positional.push(a);
    }
    // `codex resume <id>` is Codex's own spelling.
    if (agent === 'codex' && out.positional[0] === 'resume' && out.positional[1] !== undefined && out.resume === null) out.resume = out.positional[1];
    return out;
  }

  /** The canonical id for this agent's id shape (uuids lower-cased), or a refusal (exit 2). */
  function checkId(agent: string, id: string): string {
    if (agent === 'opencode' ? OPENCODE_ID.test(id) : UUID.test(id)) return agent === 'opencode' ? id : id.toLowerCase();
    throw exit(2, `${agent}: invalid session id ${JSON.stringify(id)}`);
  }

  function hex(bytes: Uint8Array): string {
    return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }

  /** A uuid v7: 48 bits of epoch ms, version 7, the RFC variant, the rest random (Codex's thread ids). */
  function uuidV7(run: FakeAgentRun): string {
    const b = run.mods.crypto.randomBytes(16);
    let ms = run.mods.now();
    for (let i = 5; i >= 0; i -= 1) {
      b[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    b[6] = ((b[6] as number) & 0x0f) | 0x70;
    b[8] = ((b[8] as number) & 0x3f) | 0x80;
    const h = hex(b);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  /** OpenCode's descending session id: `ses_` + 12 hex of ~(ms * 0x1000 + counter) + 14 random base62 (newest sorts first). */
  function opencodeId(run: FakeAgentRun): string {
    const now = BigInt(run.mods.now()) * 4096n + 1n;
    const inverted = ~now & 0xffffffffffffn;
    const time = inverted.toString(16).padStart(12, '0');
    const rnd = run.mods.crypto.randomBytes(14);
    return `ses_${time}${Array.from(rnd, (b) => B62.charAt(b % 62)).join('')}`;
  }

  /** Claude Code's project key: non-alphanumerics become `-`; over 200 chars, the first 200 + `-` + base-36 |djb2|. */
  function claudeProjectKey(cwd: string): string {
    const key = cwd.replace(/[^A-Za-z0-9]/g, '-');
    if (key.length <= 200) return key;
    let h = 0;
    for (let i = 0; i < cwd.length; i += 1) h = ((h << 5) - h + cwd.charCodeAt(i)) | 0;
    return `${key.slice(0, 200)}-${Math.abs(h).toString(36)}`;
  }

  /**
   * An agent's data dir: the variable when set (it must lie inside the sandbox home: a fake agent never writes outside it),
   * else the default under the home.
   */
  function dirFor(run: FakeAgentRun, variable: string | null, fallback: string, suffix = ''): string {
    const { path } = run.mods;
    const home = path.resolve(run.config.home);
    const value = variable === null ? undefined : run.mods.env[variable];
    if (value === undefined || value === '') return path.join(home, fallback);
    const dir = path.resolve(value);
    if (dir !== home && !dir.startsWith(`${home}/`)) {
      throw exit(2, `${run.config.agent}: ${variable}=${value} is outside the sandbox home ${home}; a fake agent writes only there`);
    }
    return path.join(dir, suffix);
  }

  function mkdirp(run: FakeAgentRun, dir: string): string {
    run.mods.fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    return dir;
  }

  function appendLines(run: FakeAgentRun, file: string, records: readonly unknown[], mode = 0o600): void {
    mkdirp(run, run.mods.path.dirname(file));
    run.mods.fs.appendFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode });
  }

  /** Replaces a file by rename (readers never see it half-written). */
  function writeAtomic(run: FakeAgentRun, file: string, text: string): void {
    mkdirp(run, run.mods.path.dirname(file));
    const tmp = `${file}.${run.mods.pid}.tmp`;
    run.mods.fs.writeFileSync(tmp, text, { mode: 0o600 });
    run.mods.fs.renameSync(tmp, file);
  }

  /** Field 22 of `/proc/<pid>/stat` (start ticks since boot), or null where `/proc` is missing. */
  function procStart(run: FakeAgentRun, pid: number): string | null {
    try {
      const text = run.mods.fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? null;
    } catch {
      return null;
    }
  }

  function iso(run: FakeAgentRun): string {
    return new Date(run.mods.now()).toISOString();
  }

  return { exit, parseArgs, checkId, uuidV7, opencodeId, claudeProjectKey, dirFor, mkdirp, appendLines, writeAtomic, procStart, iso };
}

/**
 * The part of the fake agent's `lib` an agent part reaches: the base alone (so the parts need not import the whole lib).
 * @public
 */
export interface FakeAgentBaseLib {
  /** {@link fakeAgentBase}'s helpers. */
  base: ReturnType<typeof fakeAgentBase>;
}

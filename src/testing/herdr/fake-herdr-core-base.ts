
type Exit = { type: 'exit'; stdout: string; stderr: string; exitCode: number };

/**
 * Core part: ids, herdr's output conventions and constants.
 *
 * Like every `fakeHerdr*` core part, this function is self-contained (no imports, no module scope):
 * the fake executable embeds its source text, so the in-process fake and the executable run the same code.
 * @public
 */
export function fakeHerdrBase(_lib: object) {
  const ALPHABET = '123456789ABCDEFGHJKMNPQRSTVWXYZ0';
  const STATUSES = ['idle', 'working', 'blocked', 'done', 'unknown'];
  const KINDS = [
    'pi', 'claude', 'codex', 'gemini', 'cursor', 'devin', 'agy', 'cline', 'omp', 'mastracode', 'opencode',
    'copilot', 'kimi', 'kiro', 'droid', 'amp', 'grok', 'hermes', 'kilo', 'qodercli', 'maki',
  ];
  const KIND_ALIASES: Record<string, string> = {
    'claude-code': 'claude', 'cursor-agent': 'cursor', 'kiro-cli': 'kiro', 'gemini-cli': 'gemini', antigravity: 'agy', 'github-copilot': 'copilot',
  };
  const KIND_EXE: Record<string, string> = { cursor: 'cursor-agent', kiro: 'kiro-cli' };
  const NAME_MESSAGE = "agent name must start with a lowercase letter and contain only lowercase letters, digits, '-' or '_' (1-32 characters)";
  const CONFIG_DIR = '/fake-herdr/.config/herdr';

  /** herdr's bijective base-32 numbering: 1 → `1`, 32 → `0`, 33 → `11`. */
  function encodeId(n: number): string {
    let s = '';
    let x = n;
    while (x > 0) {
      x -= 1;
      s = ALPHABET.charAt(x % 32) + s;
      x = Math.floor(x / 32);
    }
    return s;
  }

  // herdr re-serialises through serde_json without preserve_order: keys come out sorted.
  function sortKeys(v: unknown): unknown {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const item = (v as Record<string, unknown>)[k];
      if (item !== undefined) out[k] = sortKeys(item);
    }
    return out;
  }

  function line(v: unknown): string {
    return `${JSON.stringify(sortKeys(v))}\n`;
  }

  function ok(id: string, result: Record<string, unknown>): Exit {
    return { type: 'exit', stdout: line({ id, result }), stderr: '', exitCode: 0 };
  }

  function fail(id: string, code: string, message: string): Exit {
    return { type: 'exit', stdout: '', stderr: line({ error: { code, message }, id }), exitCode: 1 };
  }

  // server_not_running / protocol_mismatch come from typed structs: id first, not sorted.
  function failIdFirst(id: string, code: string, message: string): Exit {
    return { type: 'exit', stdout: '', stderr: `${JSON.stringify({ id, error: { code, message } })}\n`, exitCode: 1 };
  }

  function usage(text: string): Exit {
    return { type: 'exit', stdout: '', stderr: `${text}\n`, exitCode: 2 };
  }

  function text(out: string): Exit {
    return { type: 'exit', stdout: out, stderr: '', exitCode: 0 };
  }

  function silent(): Exit {
    return { type: 'exit', stdout: '', stderr: '', exitCode: 0 };
  }

  function rustIoError(message: string): Exit {
    return { type: 'exit', stdout: '', stderr: `Error: Custom { kind: Other, error: ${JSON.stringify(message)} }\n`, exitCode: 1 };
  }

  function socketPath(session: string): string {
    return session === 'default' ? `${CONFIG_DIR}/herdr.sock` : `${CONFIG_DIR}/sessions/${session}/herdr.sock`;
  }

  function clone<T>(v: T): T {
    return JSON.parse(JSON.stringify(v)) as T;
  }

  function canonicalKind(kind: string): string | undefined {
    const k = kind.toLowerCase();
    const canonical = KIND_ALIASES[k] ?? k;
    return KINDS.includes(canonical) ? canonical : undefined;
  }

  function kindExe(kind: string): string {
    return KIND_EXE[kind] ?? kind;
  }

  function isStatus(s: string): boolean {
    return STATUSES.includes(s);
  }

  function isValidName(name: string): boolean {
    return /^[a-z][a-z0-9_-]{0,31}$/.test(name);
  }

  function isValidSession(name: string): boolean {
    return name.length >= 1 && name.length <= 64 && /^[A-Za-z0-9._-]+$/.test(name) && name !== '.' && name !== '..';
  }

  return {
    STATUSES, NAME_MESSAGE, encodeId, sortKeys, line, ok, fail, failIdFirst, usage, text, silent, rustIoError,
    socketPath, clone, canonicalKind, kindExe, isStatus, isValidName, isValidSession,
  };
}

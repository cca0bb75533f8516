
/**
 * The options a subcommand takes: value options (`--kind K`) and boolean flags (`--wait`).
 * @public
 */
export interface FakeHerdrArgSpec {
  values?: string[];
  flags?: string[];
  /** Leading arguments taken literally, even when they look like options (the prompt text). */
  literal?: number;
}

/**
 * Parsed arguments of a subcommand.
 * @public
 */
export interface FakeHerdrParsedArgs {
  pos: string[];
  values: Record<string, string[]>;
  flags: string[];
  /** Everything after a literal `--`, or null when there was none. */
  rest: string[] | null;
}

/**
 * Core part: herdr's argv conventions (`--session` anywhere before `--`, `--flag=value`, usage errors). Self-contained, see {@link fakeHerdrBase}.
 * @public
 */
export function fakeHerdrArgs(_lib: object) {
  // `--session X` / `--session=X` is stripped anywhere before a literal `--` (so a prompt text `--session` is eaten, as in herdr).
  function splitSession(argv: string[]): { session: string | undefined; rest: string[] } | { error: string } {
    const rest: string[] = [];
    let session: string | undefined;
    for (let i = 0; i < argv.length; i += 1) {
      const a = argv[i] as string;
      if (a === '--') {
        rest.push(...argv.slice(i));
        break;
      }
      if (a === '--session') {
        const v = argv[i + 1];
        if (v === undefined) return { error: 'missing value for --session' };
        session = v;
        i += 1;
      } else if (a.startsWith('--session=')) {
        session = a.slice('--session='.length);
      } else {
        rest.push(a);
      }
    }
    return { session, rest };
  }

  function parse(args: string[], spec: FakeHerdrArgSpec): FakeHerdrParsedArgs | { error: string } {
    const literal = spec.literal ?? 0;
    const out: FakeHerdrParsedArgs = { pos: args.slice(0, literal), values: {}, flags: [], rest: null };
    const values = spec.values ?? [];
    const flags = spec.flags ?? [];
    for (let i = literal; i < args.length; i += 1) {
      const a = args[i] as string;
      if (a === '--') {
        out.rest = args.slice(i + 1);
        break;
      }
      if (!a.startsWith('--') || a === '-') {
        out.pos.push(a);
        continue;
      }
      const eq = a.indexOf('=');
      const name = eq === -1 ? a : a.slice(0, eq);
      if (values.includes(name)) {
        const v = eq === -1 ? args[i + 1] : a.slice(eq + 1);
        if (v === undefined) return { error: `missing value for ${name}` };
        if (eq === -1) i += 1;
        (out.values[name] ??= []).push(v);
      } else if (flags.includes(a)) {
        out.flags.push(a);
      } else {
        return { error: `unknown option: ${a}` };
      }
    }
    return out;
  }

  function last(parsed: FakeHerdrParsedArgs, name: string): string | undefined {
    const all = parsed.values[name];
    return all === undefined ? undefined : all[all.length - 1];
  }

  function has(parsed: FakeHerdrParsedArgs, flag: string): boolean {
    return parsed.flags.includes(flag);
  }

  /** A u64 option value, `undefined` when absent, `null` when not a number. */
  function u64(parsed: FakeHerdrParsedArgs, name: string): number | undefined | null {
    const v = last(parsed, name);
    if (v === undefined) return undefined;
    return /^\d+$/.test(v) ? Number(v) : null;
  }

  return { splitSession, parse, last, has, u64 };
}

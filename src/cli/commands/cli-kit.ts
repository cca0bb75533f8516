// The one runner every `mam` command goes through, so each handles its arguments and errors the same way: options parsed
// from the command's spec (a repeated single-valued one is an error), `--help`, a usage error as exit 2 with one line
// naming the flag or argument (never a stack, never a library parameter's name), a library fault as exit 1 with its
// message, and under `--json` every error as one JSON document on stdout: {"error":{"code","message","data"}}.
import { isAbsolute, resolve } from 'node:path';
import { parseOptions, wantsJson } from './parse-options.js';
import { type CommandName, helpOf, SPECS } from './specs.js';
import { isMamError } from '../../errors.js';
import { AGENT_NAMES, type AgentName } from '../../ids/agent-names.js';
import { nodePorts } from '../../node/node-ports.js';
import type { Ports } from '../../ports/index.js';

/** Where a command writes: the dispatcher passes the process streams, tests may pass collectors. */
export interface Io {
  /** Writes to standard output. */
  stdout: (text: string) => void;
  /** Writes to standard error. */
  stderr: (text: string) => void;
}

/** A wrong call: exit 2, `code` USAGE, `data.argument` the flag or argument (`--home`, `<agent>`). */
export class UsageError extends Error {
  constructor(message: string, readonly argument: string, readonly value?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** What a command's body receives: its parsed arguments and the shared checks. */
export interface CommandContext {
  readonly io: Io;
  /** True under `--json`: print one document through {@link CommandContext.json}, write nothing else on stdout. */
  readonly asJson: boolean;
  readonly positionals: readonly string[];
  /** A string option's value, or undefined. */
  str(flag: string): string | undefined;
  /** A boolean option: given or not. */
  flag(name: string): boolean;
  /** The home: `--home`, else `$HOME`; an absolute path to an existing directory. */
  home(): Promise<string>;
  /** `--home` checked like {@link CommandContext.home}, or undefined when not given (the library then asks its own ports). */
  givenHome(): Promise<string | undefined>;
  /** The workspace, absolute: `--workspace` (relative to the current directory) must exist; without it, an error when `required`, else the current directory. */
  workspace(required: boolean): Promise<string>;
  /** A non-negative number option (times `scale`), or undefined when not given. */
  number(flag: string, scale?: number): number | undefined;
  /** A string option that must be given and not blank. */
  required(flag: string): string;
  /** Prints the one `--json` document. */
  json<T extends { readonly kind: string }>(doc: T): void;
  /** The process's ports (made once). */
  ports(): Ports;
}

const json = (doc: unknown): string => `${JSON.stringify(doc)}\n`;

// node:util parseArgs's errors carry a code; each becomes one line naming the flag or argument.
function fromParseError(err: unknown): UsageError {
  const e = err as { code?: string; message?: string };
  const message = e.message ?? String(err);
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option: ${quoted}`, quoted);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE': {
      const flag = /--?[a-z][a-z-]*/i.exec(quoted)?.[0] ?? quoted;
      if (message.includes('does not take an argument')) return new UsageError(`${flag} takes no value`, flag);
      // "argument missing", or "ambiguous": the next word starts with "-" (a value that does must be written --flag=-x).
      return new UsageError(`${flag} needs a value${message.includes('ambiguous') ? ` (one starting with "-" is written ${flag}=VALUE)` : ''}`, flag);
    }
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument: ${JSON.stringify(quoted)}`, quoted);
    default: {
      const flag = /'(--[a-z-]+)'/.exec(message)?.[1] ?? '';
      return new UsageError(message, flag);
    }
  }
}

/** Prints an error as one line on stderr (and the usage line for a usage error), or as the JSON error document. */
function report(name: CommandName, io: Io, asJson: boolean, err: unknown): number {
  if (err instanceof UsageError) {
    const data = { argument: err.argument, ...(err.value === undefined ? {} : { value: err.value }) };
    if (asJson) io.stdout(json({ error: { code: 'USAGE', message: err.message, data } }));
    else io.stderr(`mam ${name}: ${err.message}\nusage: ${SPECS[name].usage}\n(mam ${name} --help for more)\n`);
    return 2;
  }
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
  const code = isMamError(err) ? err.code : 'INTERNAL';
  if (asJson) io.stdout(json({ error: { code, message, data: isMamError(err) ? err.data : {} } }));
  else io.stderr(`mam ${name}: ${message}\n`);
  return 1;
}

/** Runs one command: parses `argv` by the command's spec, answers `--help`, runs `body`, reports every error alike. */
export async function runCommand(name: CommandName, argv: string[], io: Io, body: (ctx: CommandContext) => Promise<number>): Promise<number> {
  const asJson = wantsJson(argv);
  try {
    const spec = SPECS[name];
    let parsed;
    try {
      parsed = parseOptions({ args: argv, allowPositionals: spec.positionals.length > 0, options: { ...spec.options, help: { type: 'boolean', short: 'h' } } });
    } catch (err) {
      throw fromParseError(err);
    }
    const values = parsed.values as Record<string, string | boolean | undefined>;
    if (values['help'] === true) {
      io.stdout(helpOf(name));
      return 0;
    }
    return await body(context(io, asJson, values, parsed.positionals));
  } catch (err) {
    return report(name, io, asJson, err);
  }
}

function context(io: Io, asJson: boolean, values: Record<string, string | boolean | undefined>, positionals: string[]): CommandContext {
  let ports: Ports | undefined;
  const getPorts = (): Ports => (ports ??= nodePorts());
  const str = (flag: string): string | undefined => {
    const v = values[flag];
    return typeof v === 'string' ? v : undefined;
  };
  const isDir = async (path: string): Promise<boolean> => (await getPorts().fs.stat(path).catch(() => null))?.kind === 'dir';
  return {
    io,
    asJson,
    positionals,
    str,
    flag: (n) => values[n] === true,
    ports: getPorts,
    json: (doc) => io.stdout(json(doc)),
    async home() {
      const given = str('home');
      const value = given ?? getPorts().proc.env()['HOME'];
      if (value === undefined || value === '') throw new UsageError(given === undefined ? '--home is required when HOME is not set' : '--home must not be empty', '--home');
      if (!isAbsolute(value) || !(await isDir(value))) {
        throw new UsageError(`${given === undefined ? 'HOME' : '--home'} must be an absolute path to an existing directory: ${JSON.stringify(value)}`, '--home', value);
      }
      return value;
    },
    async givenHome() {
      return str('home') === undefined ? undefined : this.home();
    },
    async workspace(required) {
      const given = str('workspace');
      if (given === undefined) {
        if (required) throw new UsageError('--workspace is required', '--workspace');
        return resolve('.');
      }
      if (given === '') throw new UsageError('--workspace must not be empty', '--workspace', given);
      const abs = resolve(given);
      if (!(await isDir(abs))) throw new UsageError(`--workspace must be an existing directory: ${JSON.stringify(given)}`, '--workspace', given);
      return abs;
    },
    number(flag, scale = 1) {
      const v = str(flag);
      if (v === undefined) return undefined;
      if (!/^[0-9]+(\.[0-9]+)?$/.test(v)) throw new UsageError(`--${flag} must be a non-negative number: ${JSON.stringify(v)}`, `--${flag}`, v);
      return Number(v) * scale;
    },
    required(flag) {
      const v = str(flag);
      if (v === undefined) throw new UsageError(`--${flag} is required`, `--${flag}`);
      if (v.trim() === '') throw new UsageError(`--${flag} must not be empty`, `--${flag}`, v);
      return v;
    },
  };
}

/** Refuses positionals beyond the first `count`: `unexpected argument "x"`. */
export function noMore(positionals: readonly string[], count: number): void {
  const extra = positionals[count];
  if (extra !== undefined) throw new UsageError(`unexpected argument: ${JSON.stringify(extra)}`, extra);
}

/** The positional `value` (shown in help as `name`, e.g. `<agent>`) as one of `allowed`: missing or unknown is a usage error. */
function oneOf<T extends string>(allowed: readonly T[], value: string | undefined, name: string): T {
  if (value === undefined) throw new UsageError(`missing ${name}`, name);
  const found = allowed.find((n) => n === value);
  if (found === undefined) throw new UsageError(`unknown agent ${JSON.stringify(value)}: ${name} must be one of ${allowed.join(', ')}`, name, value);
  return found;
}

/** The agent a positional names: a built-in one, or one of `extra` (the names of the agents `--agents` gave). */
export const agentArg = <E extends string = never>(value: string | undefined, name: string, extra: readonly E[] = []): AgentName | E => oneOf<AgentName | E>([...AGENT_NAMES, ...extra], value, name);

/** The agent a positional names (a built-in one, or one of `extra`), or `auto`. */
export const agentOrAuto = <E extends string = never>(value: string | undefined, name: string, extra: readonly E[] = []): AgentName | E | 'auto' =>
  oneOf<AgentName | E | 'auto'>([...AGENT_NAMES, ...extra, 'auto'], value, name);

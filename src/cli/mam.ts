#!/usr/bin/env node
// `mam <command> [args…]`: the package's command-line interface (`bin` `mam`, built to dist/cli.js). Each command is one
// file, `commands/<name>.ts`, exporting `<name>Command(argv, io): Promise<exitCode>` through the shared runner
// (`commands/cli-kit.ts`); what it accepts is its spec (`commands/specs.ts`). Run from a checkout with `npm run mam -- …`.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS, type CliCommand, type CliIo, isCommandName } from './commands.js';
import { wantsJson } from './commands/parse-options.js';
import { helpOf, SPECS } from './commands/specs.js';

export type { CliCommand, CliIo } from './commands.js';

const HELP_FLAGS = new Set(['--help', '-h']);
const VERSION_FLAGS = new Set(['--version', '-V']);

/** The version of the installed package: the nearest `package.json` named `@mam/core` above this file. */
export function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === '@mam/core' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // no package.json here: keep going up
    }
    const up = dirname(dir);
    if (up === dir) return 'unknown';
    dir = up;
  }
}

/** The top-level help: the synopsis, one line per command, and the global options. */
export function helpText(): string {
  const lines = Object.values(SPECS).flatMap((spec) => [`  ${spec.usage}`, `      ${spec.summary}`]);
  return [
    'usage: mam <command> [args…]',
    '       mam <command> --help',
    '       mam --help | --version',
    '',
    'commands:',
    ...lines,
    '',
    'options:',
    '  -h, --help     show this help (or a command\'s, after its name) and exit 0',
    '  -V, --version  print the version of @mam/core and exit 0',
    '',
    'exit codes: 0 success, 2 a usage error; each command\'s others are in its --help.',
    'Under --json every command prints one JSON document with a "kind" (an error: {"error":{"code","message","data"}}).',
    '',
  ].join('\n');
}

/** Runs `mam <argv…>` and resolves with its exit code: 0 for help/version, 2 for a missing or unknown command. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    io.stderr(helpText());
    return 2;
  }
  if (HELP_FLAGS.has(command) || command === 'help') {
    const topic = command === 'help' ? rest[0] : undefined;
    if (topic !== undefined && isCommandName(topic)) {
      io.stdout(helpOf(topic));
      return 0;
    }
    if (topic !== undefined) {
      io.stderr(`mam help: unknown command ${JSON.stringify(topic)}\n${helpText()}`);
      return 2;
    }
    io.stdout(helpText());
    return 0;
  }
  if (VERSION_FLAGS.has(command)) {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    const message = `unknown ${command.startsWith('-') ? 'option' : 'command'} ${JSON.stringify(command)}`;
    if (wantsJson(argv)) io.stdout(`${JSON.stringify({ error: { code: 'USAGE', message, data: { argument: '<command>', value: command } } })}\n`);
    else io.stderr(`mam: ${message}\n${helpText()}`);
    return 2;
  }
  const entry = COMMANDS[command];
  if (entry === undefined) return 2;
  const end = rest.includes('--') ? rest.indexOf('--') : rest.length;
  if (rest.slice(0, end).some((a) => HELP_FLAGS.has(a)) && isCommandName(command)) {
    io.stdout(helpOf(command));
    return 0;
  }
  const run: CliCommand = await entry.load();
  return run(rest, io);
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

// A write to stdout that fails (EPIPE: the reader went away, as `mam … | head -c1`; ENOSPC: `mam … > /dev/full`) arrives
// as an 'error' event; without a listener Node dies with a stack. Here it is one line on stderr and exit 1; nothing more
// is written to stdout, and the command finishes what it was doing (a purge or a reset is never cut in the middle).
function stdoutFailure(err: NodeJS.ErrnoException): string {
  const why: Readonly<Record<string, string>> = { EPIPE: 'the reader closed the pipe', ENOSPC: 'no space left on the device' };
  return `mam: cannot write to standard output: ${err.code ?? 'error'} (${why[err.code ?? ''] ?? err.message})\n`;
}

/** Runs `mam` as a process: arguments from `process.argv`, output to its streams, the exit code to `process.exitCode`. */
export function runCli(argv: string[] = process.argv.slice(2)): Promise<void> {
  let broken = false;
  const onStdoutError = (err: NodeJS.ErrnoException): void => {
    if (broken) return;
    broken = true;
    process.exitCode = 1;
    process.stderr.write(stdoutFailure(err));
  };
  process.stdout.on('error', onStdoutError);
  // A closed stderr has nowhere to be reported; it must not turn into a crash either.
  process.stderr.on('error', () => undefined);
  const io: CliIo = {
    stdout: (t) => {
      if (broken) return;
      try {
        process.stdout.write(t);
      } catch (err) {
        onStdoutError(err as NodeJS.ErrnoException);
      }
    },
    stderr: (t) => process.stderr.write(t),
  };
  return main(argv, io).then(
    (code) => {
      process.exitCode = broken ? 1 : code;
    },
    (err: unknown) => {
      io.stderr(`mam: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

if (isEntryPoint()) void runCli();

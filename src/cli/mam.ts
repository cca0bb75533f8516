#!/usr/bin/env node
// `mam <command> [args…]`: the package's command-line interface (`bin` `mam`, built to dist/cli.js). Each command is one
// file, `commands/<name>.ts`, exporting `<name>Command(argv, io): Promise<exitCode>`; it imports only the package's own
// entry (`../../index.js`, which the build maps to `@mam/core`). Run from a checkout with `npm run mam -- …`.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS, type CliCommand, type CliIo, commandSummary } from './commands.js';

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
  const lines = Object.keys(COMMANDS).map((n) => `  ${commandSummary(n)}`);
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
    if (topic !== undefined && Object.hasOwn(COMMANDS, topic)) {
      io.stdout(`${commandSummary(topic)}\n`);
      return 0;
    }
    io.stdout(helpText());
    return 0;
  }
  if (VERSION_FLAGS.has(command)) {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, command)) {
    io.stderr(`mam: unknown ${command.startsWith('-') ? 'option' : 'command'} ${JSON.stringify(command)}\n${helpText()}`);
    return 2;
  }
  const entry = COMMANDS[command];
  if (entry === undefined) return 2;
  const end = rest.includes('--') ? rest.indexOf('--') : rest.length;
  if (rest.slice(0, end).some((a) => HELP_FLAGS.has(a))) {
    io.stdout(`${commandSummary(command)}\n`);
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

/** Runs `mam` as a process: arguments from `process.argv`, output to its streams, the exit code to `process.exitCode`. */
export function runCli(argv: string[] = process.argv.slice(2)): Promise<void> {
  const io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
  return main(argv, io).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      io.stderr(`mam: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

if (isEntryPoint()) void runCli();

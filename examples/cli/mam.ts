// `mam <command> [args…]`: the example CLI over @mam/core. Each command is one file, `commands/<name>.ts`, exporting
// `<name>Command(argv, io): Promise<exitCode>` (e.g. `statusCommand`); adding a command is adding its file.
// Run it with `node --import tsx examples/cli/mam.ts …` (or `npx tsx examples/cli/mam.ts …`).
import { readdir, readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';

/** Where a command writes: the dispatcher passes the process streams, tests may pass collectors. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** A command's entry point: its arguments (after the command name) in, an exit code out. */
export type CliCommand = (argv: string[], io: CliIo) => Promise<number>;

const COMMANDS_DIR = new URL('./commands/', import.meta.url);
const NAME = /^[a-z][a-z0-9-]*$/;

function entryName(command: string): string {
  return `${command.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase())}Command`;
}

async function commandNames(): Promise<string[]> {
  const files = await readdir(COMMANDS_DIR).catch(() => [] as string[]);
  return files.filter((f) => f.endsWith('.ts') && NAME.test(f.slice(0, -3))).map((f) => f.slice(0, -3)).sort();
}

// A command's one-line help: the first comment line of its file.
async function summaryOf(command: string): Promise<string> {
  const text = await readFile(new URL(`${command}.ts`, COMMANDS_DIR), 'utf8').catch(() => '');
  const first = text.split('\n')[0] ?? '';
  return first.startsWith('//') ? first.replace(/^\/\/\s*/, '') : command;
}

async function usage(io: CliIo): Promise<void> {
  const names = await commandNames();
  const lines = await Promise.all(names.map(async (n) => `  ${(await summaryOf(n)).replaceAll('`', '')}`));
  io.stdout(`usage: mam <command> [args…]\n\ncommands:\n${lines.join('\n')}\n`);
}

/** Runs `mam <argv…>` and resolves with its exit code: 2 for a missing or unknown command. */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    await usage(io);
    return command === undefined ? 2 : 0;
  }
  if (!NAME.test(command) || !(await commandNames()).includes(command)) {
    io.stderr(`mam: unknown command ${JSON.stringify(command)}\n`);
    await usage({ stdout: io.stderr, stderr: io.stderr });
    return 2;
  }
  const mod = (await import(new URL(`${command}.ts`, COMMANDS_DIR).href)) as Record<string, unknown>;
  const run = mod[entryName(command)] ?? mod['default'];
  if (typeof run !== 'function') {
    io.stderr(`mam: commands/${command}.ts exports no ${entryName(command)}\n`);
    return 2;
  }
  return (run as CliCommand)(rest, io);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const io: CliIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      io.stderr(`mam: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

// mam reset --workspace WS [--yes] [--dry-run] → trace lines, then the table; exit 0 / 1 / 3 / 4 / 5 / 129 / 130 / 143, 2 usage.
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseOptions } from './parse-options.js';
import { ResetPlanner } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export async function resetCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions({ args: argv, options: { workspace: { type: 'string' }, yes: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } });
  } catch (err) {
    io.stderr(`mam reset: ${(err as Error).message}\n`);
    return 2;
  }
  const workspace = parsed.values.workspace;
  if (workspace === undefined || workspace === '') {
    io.stderr('usage: mam reset --workspace WS [--yes] [--dry-run]\n');
    return 2;
  }
  // A signal ends the run after the step in flight (its name is the abort reason); the guard is released on the way out.
  const abort = new AbortController();
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const onSignal = (s: NodeJS.Signals): void => {
    if (!abort.signal.aborted) io.stderr(`mam reset: ${s}: stopping after the step in flight\n`);
    abort.abort(s);
  };
  for (const s of signals) process.on(s, onSignal);
  try {
    // The library takes absolute paths only; a person's relative --workspace is resolved here, against the shell's cwd.
    const out = await new ResetPlanner(resolve(workspace)).run({
      yes: parsed.values.yes === true,
      dryRun: parsed.values['dry-run'] === true,
      interactive: process.stdin.isTTY === true,
      signal: abort.signal,
      onTrace: (line) => io.stdout(`${line}\n`),
      confirm: async () => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        try {
          return /^y(es)?$/i.test((await rl.question('Reset every running agent of this workspace (new conversations, old ones purged)? [y/N] ')).trim());
        } finally {
          rl.close();
        }
      },
    });
    if (out.kind === 'dry-run') io.stdout(out.message === '' ? 'nothing to reset\n' : `${out.message}\n`);
    else if (out.message !== '') io.stderr(`mam reset: ${out.message}\n`);
    if (out.table !== '') io.stdout(`${out.table}\n`);
    return out.exitCode;
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
}

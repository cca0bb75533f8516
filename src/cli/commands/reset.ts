// mam reset --workspace WS [--yes] [--dry-run] [--agents MODULE] [--json] → trace lines, then the table; exit 0 / 1 / 3 / 4 / 5 / 129 / 130 / 143, 2 usage.
import { createInterface } from 'node:readline/promises';
import { type Io, runCommand } from './cli-kit.js';
import { ResetPlanner } from '../../reset/reset-planner.js';
import { loadAgentsOption } from './agents-option.js';

/** `mam reset`: the trace (stderr under `--json`), then the table or the ResetOutcome as JSON; the outcome's exit code. */
export function resetCommand(argv: string[], io: Io): Promise<number> {
  return runCommand('reset', argv, io, async (ctx) => {
    const workspace = await ctx.workspace(true);
    const given = ctx.str('agents');
    const agents = given === undefined ? undefined : await loadAgentsOption(given);
    const trace = ctx.asJson ? io.stderr : io.stdout;
    // A signal ends the run after the step in flight (its name is the abort reason); the guard is released on the way out.
    const abort = new AbortController();
    const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
    const onSignal = (s: NodeJS.Signals): void => {
      if (!abort.signal.aborted) io.stderr(`mam reset: ${s}: stopping after the step in flight\n`);
      abort.abort(s);
    };
    for (const s of signals) process.on(s, onSignal);
    try {
      const out = await new ResetPlanner(workspace, agents === undefined ? {} : { agents }).run({
        yes: ctx.flag('yes'),
        dryRun: ctx.flag('dry-run'),
        interactive: process.stdin.isTTY === true,
        signal: abort.signal,
        onTrace: (line) => trace(`${line}\n`),
        confirm: async () => {
          const rl = createInterface({ input: process.stdin, output: process.stderr });
          try {
            return /^y(es)?$/i.test((await rl.question('Reset every running agent of this workspace (new conversations, old ones purged)? [y/N] ')).trim());
          } finally {
            rl.close();
          }
        },
      });
      if (ctx.asJson) {
        ctx.json(out);
        return out.exitCode;
      }
      if (out.kind === 'dry-run') io.stdout(out.message === '' ? 'nothing to reset\n' : `${out.message}\n`);
      else if (out.message !== '') io.stderr(`mam reset: ${out.message}\n`);
      if (out.table !== '') io.stdout(`${out.table}\n`);
      return out.exitCode;
    } finally {
      for (const s of signals) process.off(s, onSignal);
    }
  });
}

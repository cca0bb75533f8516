// mam reconcile [--workspace WS] [--home DIR] [--apply] [--agents MODULE] [--json] → captures the id of every running post-discovered row with none pinned; a dry run unless --apply. Exit 0, 1 registry error, 2 usage.
import { loadAgentsOption } from './agents-option.js';
import { type Io, runCommand } from './cli-kit.js';
import { reconcile, type ReconcileEntry } from '../../autopin/reconcile.js';
import type { Ports } from '../../ports/index.js';

function line(e: ReconcileEntry<string>): string {
  switch (e.outcome) {
    case 'would-pin':
      return `would pin ${e.name} (${e.agent}): ${e.id} [from ${e.source}]`;
    case 'pinned':
      return `pinned ${e.name} (${e.agent}): ${e.id} [from ${e.source}]`;
    case 'unresolved':
      return `unresolved ${e.name} (${e.agent}): ${e.reason}${e.candidates.length === 0 ? '' : ` (candidates: ${e.candidates.join(', ')})`}`;
    default: {
      const never: never = e;
      return never;
    }
  }
}

/**
 * `mam reconcile`: one line per drifted row (`{"kind":"reconcile",…}` with `--json`); nothing is written without `--apply`.
 * @public
 */
export function reconcileCommand(argv: string[], io: Io, opts: { ports?: Partial<Ports> } = {}): Promise<number> {
  return runCommand('reconcile', argv, io, async (ctx) => {
    const workspace = await ctx.workspace(false);
    const home = await ctx.givenHome();
    const given = ctx.str('agents');
    const agents = given === undefined ? undefined : await loadAgentsOption(given);
    const report = await reconcile<string>(workspace, {
      apply: ctx.flag('apply'),
      ...(home === undefined ? {} : { home }),
      ...(opts.ports === undefined ? {} : { ports: opts.ports }),
      ...(agents === undefined ? {} : { agents }),
    });
    if (ctx.asJson) {
      ctx.json({ kind: 'reconcile', ...report });
      return 0;
    }
    if (report.entries.length === 0) io.stdout(`no drifted rows in ${workspace}\n`);
    for (const e of report.entries) io.stdout(`${line(e)}\n`);
    if (!report.apply && report.entries.some((e) => e.outcome === 'would-pin')) io.stdout('dry run: nothing was pinned; run again with --apply to pin\n');
    return 0;
  });
}

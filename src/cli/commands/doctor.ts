// mam doctor [--home DIR] [--agents MODULE] [--json] → per agent: is a store there, its layout/version, known or unknown, counts, problems.
import { type Io, runCommand } from './cli-kit.js';
import { formatStoreReport } from '../../inspect/format-store-report.js';
import { inspectStores } from '../../inspect/inspect-stores.js';
import { loadAgentsOption } from './agents-option.js';

/**
 * Prints what `inspectStores` found (read-only; no agent CLI runs); exit 0 when every store present is of a known layout
 * and has no problem, 1 when one is unknown or has a problem (a purge there would refuse or leave doubt), 2 on misuse.
 * @public
 */
export function doctorCommand(argv: string[], io: Io): Promise<number> {
  return runCommand('doctor', argv, io, async (ctx) => {
    const given = ctx.str('agents');
    const agents = given === undefined ? [] : await loadAgentsOption(given);
    const home = await ctx.home();
    const reports = await inspectStores({ home, ...(agents.length === 0 ? {} : { agents }) });
    if (ctx.asJson) ctx.json({ kind: 'stores', home, reports });
    else io.stdout(`${formatStoreReport(reports)}\n`);
    return reports.some((r) => r.known === false || r.problems.length > 0) ? 1 : 0;
  });
}

// mam doctor [--home DIR] [--json] → per agent: is a store there, its layout/version, known or unknown, counts, problems.
import { parseOptions } from './parse-options.js';
import { formatStoreReport, inspectStores, nodePorts } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const USAGE = 'usage: mam doctor [--home DIR] [--json]';

/**
 * Prints what `inspectStores` found (read-only; no agent CLI runs); exit 0 when every store present is of a known layout
 * and has no problem, 1 when one is unknown or has a problem (a purge there would refuse or leave doubt), 2 on misuse.
 * @public
 */
export async function doctorCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions({ args: argv, allowPositionals: false, options: { home: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    io.stderr(`mam doctor: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const home = parsed.values.home ?? nodePorts().proc.env()['HOME'];
  if (home === undefined || home === '') {
    io.stderr(`mam doctor: no --home and no HOME\n${USAGE}\n`);
    return 2;
  }
  const reports = await inspectStores({ home });
  io.stdout(parsed.values.json === true ? `${JSON.stringify(reports, null, 2)}\n` : `${formatStoreReport(reports)}\n`);
  return reports.some((r) => r.known === false || r.problems.length > 0) ? 1 : 0;
}

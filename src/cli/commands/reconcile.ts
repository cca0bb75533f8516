// mam reconcile [--workspace WS] [--home DIR] [--apply] [--json] → captures the id of every running post-discovered row with none pinned; a dry run unless --apply. Exit 0, 1 registry error, 2 usage.
import { resolve } from 'node:path';
import { parseOptions } from './parse-options.js';
import { MamError, type Ports, reconcile, type ReconcileEntry } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

const USAGE = 'usage: mam reconcile [--workspace WS] [--home DIR] [--apply] [--json]';

function line(e: ReconcileEntry): string {
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
 * `mam reconcile`: one line per drifted row (JSON with `--json`); nothing is written without `--apply`.
 * @public
 */
export async function reconcileCommand(argv: string[], io: Io, opts: { ports?: Partial<Ports> } = {}): Promise<number> {
  let values;
  try {
    ({ values } = parseOptions({ args: argv, options: { workspace: { type: 'string' }, home: { type: 'string' }, apply: { type: 'boolean' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    io.stderr(`mam reconcile: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const workspace = resolve(values.workspace ?? process.cwd());
  try {
    const report = await reconcile(workspace, {
      apply: values.apply === true,
      ...(opts.ports === undefined ? {} : { ports: opts.ports }),
      ...(values.home === undefined ? {} : { home: resolve(values.home) }),
    });
    if (values.json === true) {
      io.stdout(`${JSON.stringify(report)}\n`);
      return 0;
    }
    if (report.entries.length === 0) io.stdout(`no drifted rows in ${workspace}\n`);
    for (const e of report.entries) io.stdout(`${line(e)}\n`);
    if (!report.apply && report.entries.some((e) => e.outcome === 'would-pin')) io.stdout('dry run: nothing was pinned; run again with --apply to pin\n');
    return 0;
  } catch (err) {
    if (!(err instanceof MamError)) throw err;
    io.stderr(`mam reconcile: ${err.message}\n`);
    return 1;
  }
}

// mam purge <agent|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--json] → exit 0 purged, 4 in use, 5 unresolved,
// 6 refused with nothing removed (not of the workspace, a database that must not be written, the disk changed), 2 usage;
// --dry-run prints the plan (changing nothing) and exits with the code the purge would give.
import { parseArgs } from 'node:util';
import { AGENT_NAMES, type AgentName, purgeExitCode, PurgeService } from '../../index.js';
import { type Io, printResult, resultJson } from './purge-output.js';

export async function purgeCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { home: { type: 'string' }, workspace: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } });
  } catch (err) {
    io.stderr(`mam purge: ${(err as Error).message}\n`);
    return 2;
  }
  const [agent, id, ...extra] = parsed.positionals;
  if (agent === undefined || id === undefined || extra.length > 0 || (agent !== 'auto' && !(AGENT_NAMES as readonly string[]).includes(agent))) {
    io.stderr(`usage: mam purge <${AGENT_NAMES.join('|')}|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--json]\n`);
    return 2;
  }
  const home = parsed.values.home ?? process.env['HOME'] ?? '/';
  const dryRun = parsed.values['dry-run'] === true;
  const result = await new PurgeService().purge(agent as AgentName | 'auto', id, { home, dryRun, ...(parsed.values.workspace ? { workspace: parsed.values.workspace } : {}) });
  if (parsed.values.json === true) io.stdout(`${JSON.stringify(resultJson(result))}\n`);
  else printResult(result, id, agent, io);
  return purgeExitCode(result);
}

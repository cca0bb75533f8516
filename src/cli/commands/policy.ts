// `mam policy FILE.json… [--json]`: runs ShadowPolicy.decide on each scenario file and prints one decision per file.
import { basename } from 'node:path';
import { isPortError, NodeFileSystem, type PolicyScenario, ShadowPolicy } from '../../index.js';

const USAGE = 'usage: mam policy FILE.json… [--json]';

function scenarioIdOf(scenario: unknown, file: string): string {
  const id = typeof scenario === 'object' && scenario !== null ? (scenario as Record<string, unknown>)['scenario_id'] : undefined;
  return typeof id === 'string' && id !== '' ? id : basename(file).replace(/\.json$/, '');
}

/**
 * Prints `{scenario_id, decision, reason}` per file (JSON lines with `--json`, else `id: decision — reason`); exit 0, 1 when a file could not be read or parsed, 2 on a usage error.
 * @public
 */
export async function policyCommand(argv: string[], io: { stdout: (s: string) => void; stderr: (s: string) => void }): Promise<number> {
  const files: string[] = [];
  let json = false;
  for (const arg of argv) {
    if (arg === '--json') json = true;
    else if (arg === '--help' || arg === '-h') {
      io.stdout(`${USAGE}\n`);
      return 0;
    } else if (arg.startsWith('-') && arg !== '-') {
      io.stderr(`unknown option: ${arg}\n${USAGE}\n`);
      return 2;
    } else files.push(arg);
  }
  if (files.length === 0) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const fs = new NodeFileSystem();
  const policy = new ShadowPolicy();
  let failed = false;
  for (const file of files) {
    let scenario: unknown;
    try {
      scenario = JSON.parse(await fs.readText(file));
    } catch (err) {
      failed = true;
      const why = isPortError(err) ? `${err.code}: ${err.message}` : `not JSON: ${err instanceof Error ? err.message : String(err)}`;
      io.stderr(`mam policy: ${file}: ${why}\n`);
      continue;
    }
    const { decision, reason } = policy.decide(scenario as PolicyScenario);
    const scenarioId = scenarioIdOf(scenario, file);
    io.stdout(json ? `${JSON.stringify({ scenario_id: scenarioId, decision, reason })}\n` : `${scenarioId}: ${decision} — ${reason}\n`);
  }
  return failed ? 1 : 0;
}

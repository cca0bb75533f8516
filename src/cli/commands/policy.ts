// `mam policy FILE.json… [--json]`: runs ShadowPolicy.decide on each scenario file and prints one decision per file.
import { basename } from 'node:path';
import { type Io, runCommand, UsageError } from './cli-kit.js';
import { isPortError } from '../../errors.js';
import type { PolicyScenario } from '../../loop/policy-scenario.js';
import { ShadowPolicy } from '../../loop/shadow-policy.js';

function scenarioIdOf(scenario: unknown, file: string): string {
  const id = typeof scenario === 'object' && scenario !== null ? (scenario as Record<string, unknown>)['scenario_id'] : undefined;
  return typeof id === 'string' && id !== '' ? id : basename(file).replace(/\.json$/, '');
}

/**
 * Prints `id: decision — reason` per file, or one `{"kind":"decisions","decisions","failures"}` with `--json`; exit 0,
 * 1 when a file could not be read or parsed (the others are still decided), 2 on a usage error.
 * @public
 */
export function policyCommand(argv: string[], io: Io): Promise<number> {
  return runCommand('policy', argv, io, async (ctx) => {
    if (ctx.positionals.length === 0) throw new UsageError('missing FILE.json (one scenario file or more)', 'FILE.json');
    const fs = ctx.ports().fs;
    const policy = new ShadowPolicy();
    const decisions: Array<{ file: string; scenarioId: string; decision: string; reason: string }> = [];
    const failures: Array<{ file: string; message: string }> = [];
    for (const file of ctx.positionals) {
      let scenario: unknown;
      try {
        scenario = JSON.parse(await fs.readText(file));
      } catch (err) {
        const message = isPortError(err) ? `${err.code}: ${err.message}` : `not JSON: ${err instanceof Error ? err.message : String(err)}`;
        failures.push({ file, message });
        if (!ctx.asJson) io.stderr(`mam policy: ${file}: ${message}\n`);
        continue;
      }
      const { decision, reason } = policy.decide(scenario as PolicyScenario);
      const scenarioId = scenarioIdOf(scenario, file);
      decisions.push({ file, scenarioId, decision, reason });
      if (!ctx.asJson) io.stdout(`${scenarioId}: ${decision} — ${reason}\n`);
    }
    if (ctx.asJson) ctx.json({ kind: 'decisions', decisions, failures });
    return failures.length > 0 ? 1 : 0;
  });
}

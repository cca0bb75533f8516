// mam purge <agent|auto> <id> [--home DIR] [--workspace WS] [--json] → exit 0 purged, 4 in use, 5 unresolved, 2 usage.
import { parseArgs } from 'node:util';
import { AGENT_NAMES, type AgentName, formatArtifact, PurgeService, purgeExitCode } from '../../../src/index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export async function purgeCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { home: { type: 'string' }, workspace: { type: 'string' }, json: { type: 'boolean' } } });
  } catch (err) {
    io.stderr(`mam purge: ${(err as Error).message}\n`);
    return 2;
  }
  const [agent, id, ...extra] = parsed.positionals;
  if (agent === undefined || id === undefined || extra.length > 0 || (agent !== 'auto' && !(AGENT_NAMES as readonly string[]).includes(agent))) {
    io.stderr(`usage: mam purge <${AGENT_NAMES.join('|')}|auto> <id> [--home DIR] [--workspace WS] [--json]\n`);
    return 2;
  }
  const home = parsed.values.home ?? process.env['HOME'] ?? '/';
  const result = await new PurgeService().purge(agent as AgentName | 'auto', id, { home, ...(parsed.values.workspace ? { workspace: parsed.values.workspace } : {}) });
  const out =
    result.kind === 'purged'
      ? {
          agent: result.agent,
          purged: result.purged.map((a) => formatArtifact(a)),
          residual: result.residual.map((a) => formatArtifact(a, { reason: true })),
          mentions: result.mentions.map((a) => formatArtifact(a, { reason: true })),
          notes: result.notes,
          in_use: false,
        }
      : result.kind === 'in-use'
        ? { agent: result.agent, purged: [], residual: [], in_use: true, holders: result.holders, hints: result.hints }
        : { agent: null, purged: [], residual: [], in_use: false };
  if (parsed.values.json === true) io.stdout(`${JSON.stringify(out)}\n`);
  else if (result.kind === 'purged') {
    for (const p of result.purged) io.stdout(`purged: ${formatArtifact(p)}\n`);
    io.stdout(result.residual.length === 0 ? `residual: none (agent: ${result.agent})\n` : result.residual.map((r) => `residual: ${formatArtifact(r, { reason: true })}\n`).join(''));
    for (const m of result.mentions) io.stdout(`still mentioned in (shared, not edited): ${formatArtifact(m, { reason: true })}\n`);
    for (const n of result.notes) io.stdout(`note: ${n}\n`);
  } else if (result.kind === 'in-use') {
    io.stderr(`refused: conversation ${id} is still in use (agent: ${result.agent}); nothing removed\n`);
    for (const h of result.holders) io.stderr(`  holder pid ${h.pid}: ${h.command}\n`);
    for (const h of result.hints) io.stderr(`  see: ${h}\n`);
  } else io.stderr(`unresolved: no ${agent === 'auto' ? 'agent' : agent} artifact of ${JSON.stringify(id)} found\n`);
  return purgeExitCode(result);
}

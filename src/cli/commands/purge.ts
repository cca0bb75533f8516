// mam purge <agent|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--json] → exit 0 purged (nothing of it left), 2
// usage, 4 in use, 5 unresolved, 6 refused with nothing removed (not of the workspace, a database that must not be written,
// a store that cannot be read, every removal failed, the disk changed), 7 partial (removed some, left some, each with its
// reason); --dry-run prints the plan (changing nothing) and exits with the code the purge would give.
import { parseOptions } from './parse-options.js';
import {
  AGENT_NAMES,
  type AgentName,
  type Artifact,
  formatArtifact,
  type OtherAgentArtifacts,
  purgeExitCode,
  type PurgePlan,
  type PurgeResult,
  PurgeService, nodePorts,
  type PurgeFault,
} from '../../index.js';

const USAGE = `usage: mam purge <${AGENT_NAMES.join('|')}|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--json]
exit: 0 purged (nothing of it left), 2 usage, 4 in use, 5 unresolved (no artifact of the id), 6 refused (nothing removed),
      7 partial (removed some, left some); a dry run exits with the code the purge would give`;

/** Where the command writes. */
export interface Io {
  /** Standard output. */
  stdout: (s: string) => void;
  /** Standard error. */
  stderr: (s: string) => void;
}

const str = (xs: readonly Artifact[]): string[] => xs.map((a) => formatArtifact(a, { reason: true }));
const others = (xs: readonly OtherAgentArtifacts[]): Array<{ agent: string; artifacts: string[] }> => xs.map((o) => ({ agent: o.agent, artifacts: str(o.artifacts) }));
const faultText = (f: PurgeFault): string => `${f.cause}${f.path === null ? '' : ` at ${f.path}`}: ${f.advice}`;

/** The plan as the `--dry-run --json` object. */
export function planJson(plan: PurgePlan): Record<string, unknown> {
  return {
    dry_run: true,
    agent: plan.agent,
    id: plan.id,
    verdict: plan.verdict,
    reason: plan.reason,
    would_remove: plan.artifacts.map((a) => formatArtifact(a)),
    artifacts: plan.artifacts,
    refused: str(plan.refused),
    holders: plan.holders,
    hints: plan.hints,
    mentions: str(plan.mentions),
    notes: plan.notes,
    faults: plan.faults,
    other_agents: others(plan.otherAgents),
    in_use: plan.holders.length > 0,
    kind: 'dry-run',
  };
}

/** The result as the `--json` object (the reference keys first, then `kind`, the result's kind). */
export function resultJson(result: PurgeResult): Record<string, unknown> {
  return { ...resultFields(result), kind: result.kind };
}

function resultFields(result: PurgeResult): Record<string, unknown> {
  switch (result.kind) {
    case 'purged':
    case 'partial':
      return {
        agent: result.agent,
        purged: result.purged.map((a) => formatArtifact(a)),
        residual: str(result.residual),
        mentions: str(result.mentions),
        notes: result.notes,
        other_agents: others(result.otherAgents),
        in_use: false,
        ...(result.kind === 'partial' ? { faults: result.faults } : {}),
      };
    case 'in-use':
      return { agent: result.agent, purged: [], residual: [], in_use: true, holders: result.holders, hints: result.hints };
    case 'unresolved':
      return { agent: null, purged: [], residual: [], in_use: false };
    case 'not-in-workspace':
      return { agent: result.agent, purged: [], residual: [], in_use: false, refused: result.kind, reason: result.reason, workspace: result.workspace };
    case 'refused':
      return { agent: result.agent, purged: [], residual: [], in_use: false, refused: result.kind, reason: result.reason, items: str(result.refused), faults: result.faults };
    case 'changed':
      return { agent: result.agent, purged: [], residual: [], in_use: false, refused: result.kind, changes: result.changes.map((c) => ({ change: c.change, artifact: formatArtifact(c.artifact, { reason: true }) })) };
    case 'dry-run':
      return planJson(result.plan);
    default: {
      const never: never = result;
      return never;
    }
  }
}

function printOthers(xs: readonly OtherAgentArtifacts[], io: Io): void {
  for (const o of xs) for (const a of o.artifacts) io.stdout(`also found (agent ${o.agent}, not purged: purge it with that agent named): ${formatArtifact(a, { reason: true })}\n`);
}

function printPlan(plan: PurgePlan, io: Io): void {
  io.stdout(`dry run (${plan.verdict}): ${plan.reason}; nothing was changed\n`);
  for (const a of plan.artifacts) io.stdout(`would remove: ${formatArtifact(a)}\n`);
  for (const a of plan.refused) io.stdout(`refused: ${formatArtifact(a, { reason: true })}\n`);
  for (const h of plan.holders) io.stdout(`  holder pid ${h.pid} (${h.signal}): ${h.command}\n`);
  for (const h of plan.hints) io.stdout(`  see: ${h}\n`);
  for (const m of plan.mentions) io.stdout(`still mentioned in (shared, not edited): ${formatArtifact(m, { reason: true })}\n`);
  for (const n of plan.notes) io.stdout(`note: ${n}\n`);
  for (const f of plan.faults) io.stdout(`fault: ${faultText(f)}\n`);
  printOthers(plan.otherAgents, io);
}

/** Prints the result as text: `purged:` / `residual:` lines (stdout), refusals on stderr, a dry run's plan. */
export function printResult(result: PurgeResult, id: string, asked: string, io: Io): void {
  switch (result.kind) {
    case 'purged':
    case 'partial':
      for (const p of result.purged) io.stdout(`purged: ${formatArtifact(p)}\n`);
      io.stdout(result.residual.length === 0 ? `residual: none (agent: ${result.agent})\n` : result.residual.map((r) => `residual: ${formatArtifact(r, { reason: true })}\n`).join(''));
      for (const m of result.mentions) io.stdout(`still mentioned in (shared, not edited): ${formatArtifact(m, { reason: true })}\n`);
      for (const n of result.notes) io.stdout(`note: ${n}\n`);
      printOthers(result.otherAgents, io);
      if (result.kind === 'partial') {
        io.stderr(`partial: ${result.residual.length} item(s) of ${id} are still on disk; purge it again once they can be removed\n`);
        for (const f of result.faults) io.stderr(`  fault: ${faultText(f)}\n`);
      }
      return;
    case 'in-use':
      io.stderr(`refused: conversation ${id} is still in use (agent: ${result.agent}); nothing removed\n`);
      for (const h of result.holders) io.stderr(`  holder pid ${h.pid}: ${h.command}\n`);
      for (const h of result.hints) io.stderr(`  see: ${h}\n`);
      return;
    case 'unresolved':
      io.stderr(`unresolved: no ${asked === 'auto' ? 'agent' : asked} artifact of ${JSON.stringify(id)} found\n`);
      return;
    case 'not-in-workspace':
      io.stderr(`refused: ${result.reason}; nothing removed\n`);
      return;
    case 'refused':
      io.stderr(`refused: ${result.reason}; nothing removed\n`);
      for (const a of result.refused) io.stderr(`  left: ${formatArtifact(a, { reason: true })}\n`);
      for (const f of result.faults) io.stderr(`  fault: ${faultText(f)}\n`);
      return;
    case 'changed':
      io.stderr(`refused: the disk no longer matches the plan; nothing removed (plan again)\n`);
      for (const c of result.changes) io.stderr(`  ${c.change}: ${formatArtifact(c.artifact, { reason: true })}\n`);
      return;
    case 'dry-run':
      printPlan(result.plan, io);
      return;
    default: {
      const never: never = result;
      return never;
    }
  }
}


export async function purgeCommand(argv: string[], io: Io): Promise<number> {
  let parsed;
  try {
    parsed = parseOptions({ args: argv, allowPositionals: true, options: { home: { type: 'string' }, workspace: { type: 'string' }, json: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } });
  } catch (err) {
    io.stderr(`mam purge: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const [agent, id, ...extra] = parsed.positionals;
  if (agent === undefined || id === undefined || extra.length > 0 || (agent !== 'auto' && !(AGENT_NAMES as readonly string[]).includes(agent))) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }
  const home = parsed.values.home ?? nodePorts().proc.env()['HOME'] ?? '/';
  const dryRun = parsed.values['dry-run'] === true;
  const result = await new PurgeService().purge(agent as AgentName | 'auto', id, { home, dryRun, ...(parsed.values.workspace ? { workspace: parsed.values.workspace } : {}) });
  if (parsed.values.json === true) io.stdout(`${JSON.stringify(resultJson(result))}\n`);
  else printResult(result, id, agent, io);
  return purgeExitCode(result);
}

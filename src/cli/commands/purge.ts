// mam purge <agent|auto> <id> [--home DIR] [--workspace WS] [--dry-run] [--agents MODULE] [--json] → exit 0 purged (nothing of it left), 2
// usage, 4 in use, 5 unresolved, 6 refused with nothing removed (not of the workspace, a database that must not be written,
// a store that cannot be read, every removal failed, the disk changed), 7 partial (removed some, left some, each with its
// reason); --dry-run prints the plan (changing nothing) and exits with the code the purge would give.
import { agentOrAuto, type Io, noMore, runCommand, UsageError } from './cli-kit.js';
import { type Artifact, formatArtifact } from '../../purge/artifact.js';
import type { PurgeFault } from '../../purge/purge-fault.js';
import type { OtherAgentArtifacts, PurgePlan } from '../../purge/purge-plan.js';
import { purgeExitCode, type PurgeResult } from '../../purge/purge-result.js';
import { PurgeService } from '../../purge/purge-service.js';
import { loadAgentsOption } from './agents-option.js';

export type { Io } from './cli-kit.js';

const str = (xs: readonly Artifact[]): string[] => xs.map((a) => formatArtifact(a, { reason: true }));
const others = (xs: readonly OtherAgentArtifacts[]): Array<{ agent: string; artifacts: string[] }> => xs.map((o) => ({ agent: o.agent, artifacts: str(o.artifacts) }));
const faultText = (f: PurgeFault): string => `${f.cause}${f.path === null ? '' : ` at ${f.path}`}: ${f.advice}`;

/** The plan as the `--dry-run --json` object. */
export function planJson(plan: PurgePlan): { kind: 'dry-run' } & Record<string, unknown> {
  return {
    kind: 'dry-run',
    dryRun: true,
    agent: plan.agent,
    id: plan.id,
    verdict: plan.verdict,
    reason: plan.reason,
    wouldRemove: plan.artifacts.map((a) => formatArtifact(a)),
    artifacts: plan.artifacts,
    refused: str(plan.refused),
    holders: plan.holders,
    hints: plan.hints,
    mentions: str(plan.mentions),
    notes: plan.notes,
    faults: plan.faults,
    otherAgents: others(plan.otherAgents),
    inUse: plan.holders.length > 0,
  };
}

/** The result as the `--json` object: its `kind` and the reference keys (artifacts as reference strings), camelCase. */
export function resultJson(result: PurgeResult): { kind: PurgeResult['kind'] } & Record<string, unknown> {
  return { kind: result.kind, ...resultFields(result) };
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
        otherAgents: others(result.otherAgents),
        inUse: false,
        ...(result.kind === 'partial' ? { faults: result.faults } : {}),
      };
    case 'in-use':
      return { agent: result.agent, purged: [], residual: [], inUse: true, holders: result.holders, hints: result.hints };
    case 'unresolved':
      return { agent: null, purged: [], residual: [], inUse: false };
    case 'not-in-workspace':
      return { agent: result.agent, purged: [], residual: [], inUse: false, refused: result.kind, reason: result.reason, workspace: result.workspace };
    case 'refused':
      return { agent: result.agent, purged: [], residual: [], inUse: false, refused: result.kind, reason: result.reason, items: str(result.refused), faults: result.faults };
    case 'changed':
      return { agent: result.agent, purged: [], residual: [], inUse: false, refused: result.kind, changes: result.changes.map((c) => ({ change: c.change, artifact: formatArtifact(c.artifact, { reason: true }) })) };
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
  // Only a plan that would run removes anything: otherwise its artifacts are what was found, and why they stay is said.
  const removes = plan.verdict === 'purge' || plan.verdict === 'partial';
  for (const a of plan.artifacts) io.stdout(removes ? `would remove: ${formatArtifact(a)}\n` : `found (${plan.verdict}: would not remove): ${formatArtifact(a)}\n`);
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


/** `mam purge`: the result as text or as one JSON document; the exit code of the result (see the file's first lines). */
export function purgeCommand(argv: string[], io: Io): Promise<number> {
  return runCommand('purge', argv, io, async (ctx) => {
    const given = ctx.str('agents');
    const agents = given === undefined ? [] : await loadAgentsOption(given);
    const agent = agentOrAuto(ctx.positionals[0], '<agent|auto>', agents.map((d) => d.name));
    const id = ctx.positionals[1];
    if (id === undefined) throw new UsageError('missing <id>', '<id>');
    if (id.trim() === '') throw new UsageError('<id> must not be empty', '<id>', id);
    noMore(ctx.positionals, 2);
    const workspace = ctx.str('workspace') === undefined ? undefined : await ctx.workspace(false);
    const result = await new PurgeService<string>({ agents }).purge(agent, id, { home: await ctx.home(), dryRun: ctx.flag('dry-run'), ...(workspace === undefined ? {} : { workspace }) });
    if (ctx.asJson) ctx.json(resultJson(result));
    else printResult(result, id, agent, io);
    return purgeExitCode(result);
  });
}

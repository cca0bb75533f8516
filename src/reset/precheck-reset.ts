import { adaptersOf } from '../agents/adapters-of.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { outsideAdapter } from '../agents/outside-agents.js';
import { agentsOf } from '../registry/registry-agents.js';
import { resolveSessionSpec } from '../lifecycle/session-spec.js';
import type { Ports } from '../ports/index.js';
import { recordedId } from '../registry/row-agent.js';
import type { RegistryInspection } from '../registry/registry-state.js';
import { findOpenJobs } from './find-open-jobs.js';
import { liveMarkers } from './live-markers.js';
import { planReset } from './plan-reset.js';
import type { ResetRefusal } from './reset-refusal.js';
import { ResetSpecError } from './reset-spec-error.js';
import { readResetSpec, type ResetSpec } from './reset-spec-file.js';
import type { ResetPlan, ResetTarget } from './reset-target.js';

/**
 * The precheck's answer: go on with these targets (from the saved spec when there is one), or refuse with every reason.
 * @public
 */
export type PrecheckResult =
  | { kind: 'ok'; targets: ResetTarget[]; spec: ResetSpec | null; plan: ResetPlan }
  | { kind: 'refused'; refusals: ResetRefusal[]; message: string };

function callerRefusals(ports: Ports, targets: readonly ResetTarget[], inspection: RegistryInspection, env: Readonly<Record<string, string | undefined>>, agents: readonly AgentDefinition<string>[] | undefined): ResetRefusal[] {
  const out: ResetRefusal[] = [];
  const known = agentsOf({ agents });
  for (const t of targets) {
    const row = inspection.state.herdr_sessions.find((r) => r.name === t.name);
    const ids = new Set([t.oldId, row === undefined ? null : recordedId(row, { agents })].filter((x): x is string => x !== null));
    const outside = known.outside(t.agent);
    const envVar = (outside === undefined ? adaptersOf(ports).get(t.agent) : outsideAdapter(ports, outside)).sessionEnvVar;
    const mine = envVar === undefined ? undefined : env[envVar];
    if (envVar !== undefined && mine !== undefined && mine !== '' && ids.has(mine)) {
      out.push({ kind: 'caller-is-target', name: t.name, envVar, message: `you are ${t.name}, one of the targets (${envVar}); run the reset from another session` });
    }
  }
  return out;
}

function targetRefusals(workspace: string, targets: readonly ResetTarget[], plan: ResetPlan, fromSpec: boolean, agents: readonly AgentDefinition<string>[] | undefined): ResetRefusal[] {
  const out: ResetRefusal[] = [];
  if (!fromSpec) for (const e of plan.errors) out.push({ kind: 'bad-target', name: e.name, problem: e.problem, message: `${e.name} cannot be recreated: ${e.problem}` });
  for (const t of targets) {
    const r = resolveSessionSpec<string>({ ...t, cwd: workspace }, workspace, { agents });
    if (!r.ok) out.push({ kind: 'bad-target', name: t.name, problem: r.problem, message: `${t.name} cannot be recreated: ${r.problem}` });
  }
  return out;
}

/**
 * Checks that a reset may run — no bad saved spec, every target recreatable, no open job of a target, no live loop or
 * update (`ownLoopGuard`: the loop marker is the caller's own), the caller not a target — reading only, so a refusal changes nothing.
 * @public
 */
export async function precheckReset(ports: Ports, workspace: string, inspection: RegistryInspection, env: Readonly<Record<string, string | undefined>>, opts: { ownLoopGuard?: boolean; agents?: readonly AgentDefinition<string>[] } = {}): Promise<PrecheckResult> {
  const { agents } = opts;
  let spec: ResetSpec | null = null;
  try {
    spec = await readResetSpec(ports.fs, workspace, { agents });
  } catch (err) {
    if (!(err instanceof ResetSpecError)) throw err;
    const refusal: ResetRefusal = { kind: 'bad-spec', path: String(err.data['path']), message: err.message };
    return { kind: 'refused', refusals: [refusal], message: err.message };
  }
  const plan = await planReset(inspection, workspace, ports.fs, { agents });
  const targets = spec === null ? plan.targets : spec.agents;
  const refusals = [
    ...targetRefusals(workspace, targets, plan, spec !== null, agents),
    ...(await findOpenJobs(ports.fs, workspace, new Set(targets.map((t) => t.name)))),
    ...(await liveMarkers(ports, workspace)).filter((m) => !(opts.ownLoopGuard === true && m.marker === 'loop')),
    ...callerRefusals(ports, targets, inspection, env, agents),
  ];
  if (refusals.length > 0) return { kind: 'refused', refusals, message: refusals.map((r) => r.message).join('\n') };
  return { kind: 'ok', targets, spec, plan };
}

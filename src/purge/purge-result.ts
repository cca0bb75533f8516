import type { AgentName } from '../ids/agent-names.js';
import type { Artifact, LeftArtifact } from './artifact.js';
import type { OtherAgentArtifacts, PlanChange, PurgeHolder, PurgePlan } from './purge-plan.js';

/**
 * The outcome of purging one conversation.
 * - `purged`: what was removed, what stays of its own artifacts (`residual`, each with its reason), shared files and rows
 *   still naming it (`mentions`), what a person should know that is no artifact (`notes`), and other agents' artifacts
 *   of the same id that an `auto` purge found and left (`otherAgents`);
 * - `in-use`: a live process uses it — nothing was removed;
 * - `unresolved`: no artifact of the id (of the named agent, or of any agent for `auto`) — nothing was removed;
 * - `not-in-workspace`: `workspace` was given and the conversation is not of it — nothing was removed;
 * - `refused`: the plan refuses as a whole (a database that must not be written: a link, hard-linked) — nothing was removed;
 * - `changed`: the disk no longer matches the plan executed (`changes`) — nothing was removed; plan again;
 * - `dry-run`: the plan, not executed.
 * @public
 */
export type PurgeResult =
  | {
      kind: 'purged';
      agent: AgentName;
      purged: Artifact[];
      residual: LeftArtifact[];
      mentions: Artifact[];
      notes: string[];
      otherAgents: OtherAgentArtifacts[];
      inUse: false;
    }
  | { kind: 'in-use'; agent: AgentName; holders: PurgeHolder[]; hints: string[]; inUse: true }
  | { kind: 'unresolved'; agent: null }
  | { kind: 'not-in-workspace'; agent: AgentName; workspace: string; reason: string; inUse: false }
  | { kind: 'refused'; agent: AgentName; refused: LeftArtifact[]; reason: string; inUse: false }
  | { kind: 'changed'; agent: AgentName; changes: PlanChange[]; inUse: false }
  | { kind: 'dry-run'; agent: AgentName | null; plan: PurgePlan; inUse: boolean };

/**
 * The exit code the CLI gives a purge verdict: 0 purge, 4 in use, 5 unresolved, 6 refused (not of the workspace, a
 * database that must not be written).
 * @public
 */
export function verdictExitCode(verdict: PurgePlan['verdict']): 0 | 4 | 5 | 6 {
  switch (verdict) {
    case 'purge':
      return 0;
    case 'in-use':
      return 4;
    case 'unresolved':
      return 5;
    case 'not-in-workspace':
    case 'refused':
      return 6;
    default: {
      const never: never = verdict;
      return never;
    }
  }
}

/**
 * The exit code the CLI (and the reference tool) gives a purge result: 0 purged, 4 in use, 5 unresolved, 6 refused with
 * nothing removed (`not-in-workspace`, `refused`, `changed`); a dry run gives its plan's.
 * @public
 */
export function purgeExitCode(result: PurgeResult): 0 | 4 | 5 | 6 {
  switch (result.kind) {
    case 'purged':
      return 0;
    case 'changed':
      return 6;
    case 'dry-run':
      return verdictExitCode(result.plan.verdict);
    default:
      // The other kinds are the plan verdicts that stopped the purge, and exit as those verdicts do.
      return verdictExitCode(result.kind);
  }
}

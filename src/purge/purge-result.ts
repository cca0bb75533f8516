import type { AgentName } from '../ids/agent-names.js';
import type { Artifact, LeftArtifact } from './artifact.js';
import type { PurgeFault } from './purge-fault.js';
import type { OtherAgentArtifacts, PlanChange, PurgeHolder, PurgePlan } from './purge-plan.js';

/**
 * The outcome of purging one conversation; only `purged` means the conversation is gone.
 * - `purged`: every artifact of it was removed and nothing of it is left (`residual` is empty); shared files and rows
 *   still naming it (`mentions`), what a person should know that is no artifact (`notes`), and other agents' artifacts
 *   of the same id that an `auto` purge found and left (`otherAgents`);
 * - `partial`: some artifacts were removed (`purged`) and some are left (`residual`, each with its reason); `faults`
 *   names the causes found (a read-only or full disk, an I/O error, an unreadable store, a missing binding);
 * - `in-use`: a live process uses it — nothing was removed;
 * - `unresolved`: no artifact of the id (of the named agent, or of any agent for `auto`) — nothing was removed;
 * - `not-in-workspace`: `workspace` was given and the conversation is not of it — nothing was removed;
 * - `refused`: nothing was removed — the plan refuses as a whole (a database that must not be written, a store that
 *   cannot be read) or every removal failed; `refused` lists what stays with its reason, `faults` the causes (`agent` is
 *   null when no agent's readable store has the id and one that cannot be read may);
 * - `changed`: the disk no longer matches the plan executed (`changes`) — nothing was removed; plan again;
 * - `dry-run`: the plan, not executed.
 * `agent` is a built-in agent's name, or an outside definition's (`PurgeService`'s `agents`).
 * @public
 */
export type PurgeResult =
  | {
      kind: 'purged';
      agent: AgentName | (string & {});
      purged: Artifact[];
      residual: LeftArtifact[];
      mentions: Artifact[];
      notes: string[];
      otherAgents: OtherAgentArtifacts[];
      inUse: false;
    }
  | {
      kind: 'partial';
      agent: AgentName | (string & {});
      purged: Artifact[];
      residual: LeftArtifact[];
      faults: PurgeFault[];
      mentions: Artifact[];
      notes: string[];
      otherAgents: OtherAgentArtifacts[];
      inUse: false;
    }
  | { kind: 'in-use'; agent: AgentName | (string & {}); holders: PurgeHolder[]; hints: string[]; inUse: true }
  | { kind: 'unresolved'; agent: null }
  | { kind: 'not-in-workspace'; agent: AgentName | (string & {}); workspace: string; reason: string; inUse: false }
  | { kind: 'refused'; agent: AgentName | (string & {}) | null; refused: LeftArtifact[]; reason: string; faults: PurgeFault[]; inUse: false }
  | { kind: 'changed'; agent: AgentName | (string & {}); changes: PlanChange[]; inUse: false }
  | { kind: 'dry-run'; agent: AgentName | (string & {}) | null; plan: PurgePlan; inUse: boolean };

/**
 * Every exit code of `mam purge`, by name: 0 purged, 2 usage, 4 in use, 5 unresolved, 6 refused with nothing removed, 7
 * partly done (something removed, something left).
 * @public
 */
export const PURGE_EXIT_CODES = { purged: 0, usage: 2, inUse: 4, unresolved: 5, refused: 6, partial: 7 } as const;

/**
 * The exit code the CLI gives a purge verdict: 0 purge, 4 in use, 5 unresolved, 6 refused (not of the workspace, a
 * database that must not be written, nothing it could remove), 7 partial (it would remove some and leave some).
 * @public
 */
export function verdictExitCode(verdict: PurgePlan['verdict']): 0 | 4 | 5 | 6 | 7 {
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
    case 'partial':
      return 7;
    default: {
      const never: never = verdict;
      return never;
    }
  }
}

/**
 * The exit code the CLI gives a purge result: 0 purged, 4 in use, 5 unresolved, 6 refused with nothing removed
 * (`not-in-workspace`, `refused`, `changed`), 7 partial; a dry run gives its plan's.
 * @public
 */
export function purgeExitCode(result: PurgeResult): 0 | 4 | 5 | 6 | 7 {
  switch (result.kind) {
    case 'purged':
      return 0;
    case 'changed':
      return 6;
    case 'dry-run':
      return verdictExitCode(result.plan.verdict);
    default:
      // The other kinds are the plan verdicts that stopped the purge (or what it did), and exit as those verdicts do.
      return verdictExitCode(result.kind);
  }
}

import { AGENT_NAMES, type AgentName } from '../ids/agent-names.js';
import type { PurgeResult } from './purge-result.js';

/**
 * The outcome of registering an orchestrator id (`invalid-id`: not a plausible id of any agent; nothing registered).
 * @public
 */
export type OrchestratorRegisterResult = { kind: 'registered'; id: string } | { kind: 'already-registered'; id: string } | { kind: 'invalid-id'; id: string; message: string };

/**
 * Options of {@link Orchestrators.remove}.
 * @public
 */
export interface OrchestratorRemoveOptions {
  /** Also purge the conversation (needs `yes`). */
  purgeConversation?: boolean;
  /** Confirms a purge. */
  yes?: boolean;
  /** Say what would be done and change nothing. */
  dryRun?: boolean;
}

/**
 * The outcome of removing an orchestrator id (the table of `purge.md`):
 * - `invalid-id` (a usage error) / `not-registered`: nothing changed;
 * - `needs-yes`: a purge was asked without `yes`; artifacts and registration untouched;
 * - `in-use`: the conversation is still in use (another process, or the orchestrator's own session); artifacts **and**
 *   registration kept;
 * - `dry-run`: what would be done (`agent`: the agent its artifacts resolve to, null when none are on disk);
 * - `purge-refused`: the purge removed nothing (a database that must not be written, the disk changed meanwhile) or left
 *   part of the conversation (`partial`): registration kept;
 * - `removed`: unregistered; `purge` is the purge's result (`unresolved`: nothing to purge), null when none was asked.
 * @public
 */
export type OrchestratorRemoveResult<Extra extends string = never> =
  | { kind: 'invalid-id'; id: string; message: string }
  | { kind: 'not-registered'; id: string; message: string }
  | { kind: 'needs-yes'; id: string; message: string }
  | { kind: 'in-use'; id: string; agent: AgentName | Extra; holders: { pid: number; command: string }[]; hints: string[]; message: string }
  | { kind: 'dry-run'; id: string; purge: boolean; agent: AgentName | Extra | null; message: string }
  | { kind: 'purge-refused'; id: string; purge: Extract<PurgeResult, { kind: 'not-in-workspace' | 'refused' | 'changed' | 'dry-run' | 'partial' }>; message: string }
  | { kind: 'removed'; id: string; purge: Extract<PurgeResult, { kind: 'purged' | 'unresolved' }> | null };

/**
 * The message of an orchestrator id that is not a plausible conversation id of any agent: `agents` are the names known
 * (default the built-in agents'; an `Orchestrators` given outside agents lists them too).
 * @public
 */
export function invalidOrchestratorIdMessage(id: string, agents: readonly string[] = AGENT_NAMES): string {
  return `not a conversation id of any agent (${agents.join(', ')}): ${JSON.stringify(id)}`;
}

/**
 * The refusal text of a removal whose conversation is still in use.
 * @public
 */
export function orchestratorInUseMessage(id: string, agent: AgentName | (string & {}), holders: readonly { pid: number; command: string }[], hints: readonly string[]): string {
  return [
    `refused: conversation ${id} is still in use (agent: ${agent}); nothing was removed and orchestrator UUID ${id} stays registered`,
    ...holders.map((h) => `  holder pid ${h.pid}: ${h.command}`),
    ...hints.map((h) => `  see: ${h}`),
  ].join('\n');
}

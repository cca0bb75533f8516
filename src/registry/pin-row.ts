import { UnknownAgentError } from '../errors.js';
import { requireAgentId } from '../ids/agent-id.js';
import { ownKey } from '../ids/agent-names.js';
import { RegistryRowNotFoundError } from './registry-row-not-found-error.js';
import type { RegistryState } from './registry-state.js';
import { rowAgent } from './row-agent.js';
import type { SessionRow } from './session-row.js';

/**
 * Pins a conversation id onto a row of a draft (inside `update`): the row's own key gets the id (canonical spelling),
 * `session_id_source` becomes `discovered` and `session_id_verified` true; every other field stays. Throws a
 * RegistryRowNotFoundError, an UnknownAgentError (the row's agent cannot be told) or an InvalidIdError.
 * @example
 * ```ts
 * await registry.update((draft) => pinRow(draft, 'reviewer-agy-01', id));
 * ```
 * @public
 */
export function pinRow(draft: RegistryState, name: string, id: string): SessionRow {
  const row = draft.herdr_sessions.find((r) => r.name === name);
  if (row === undefined) throw new RegistryRowNotFoundError(name);
  const agent = rowAgent(row);
  if (agent === undefined) throw new UnknownAgentError(String(row.agent ?? ''));
  row[ownKey(agent)] = requireAgentId(agent, id);
  row.session_id_source = 'discovered';
  row.session_id_verified = true;
  return row;
}

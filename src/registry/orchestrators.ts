import { InvalidIdError } from '../errors.js';
import { normalizeAgentId } from '../ids/agent-id.js';
import { AGENT_NAMES } from '../ids/agent-names.js';
import type { RegistryState } from './registry-state.js';
import { checkListOrchestrators, checkOrchestratorEdit } from '../validation/low-level-args.js';

// The canonical spelling of a plausible id of any agent (uuids lower-cased, OpenCode ids as they are), or null.
function canonical(id: string): string | null {
  for (const agent of AGENT_NAMES) {
    const ok = normalizeAgentId(agent, id);
    if (ok !== null) return ok;
  }
  return null;
}

function same(a: string, b: string): boolean {
  return (canonical(a) ?? a) === (canonical(b) ?? b);
}

/**
 * The orchestrator conversation ids (bare ids, no row), in registry order.
 * @public
 */
export function listOrchestrators(state: RegistryState): string[] {
  checkListOrchestrators([state]);
  return [...state.orchestrator_uuids];
}

/**
 * Registers an orchestrator id on a draft (canonical spelling); false when it was already there. Throws an
 * InvalidIdError for anything that is not some agent's plausible id.
 * @public
 */
export function addOrchestrator(draft: RegistryState, id: string): boolean {
  checkOrchestratorEdit([draft, id]);
  const ok = canonical(id);
  if (ok === null) throw new InvalidIdError('orchestrator', id);
  if (draft.orchestrator_uuids.some((x) => same(x, ok))) return false;
  draft.orchestrator_uuids.push(ok);
  return true;
}

/**
 * Unregisters an orchestrator id from a draft (a uuid in any case); false when it was not there.
 * @public
 */
export function removeOrchestrator(draft: RegistryState, id: string): boolean {
  checkOrchestratorEdit([draft, id]);
  const ids = draft.orchestrator_uuids;
  const before = ids.length;
  for (let i = ids.length - 1; i >= 0; i--) if (same(ids[i] as string, id)) ids.splice(i, 1);
  return ids.length !== before;
}

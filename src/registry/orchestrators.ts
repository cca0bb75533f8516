import type { AgentCatalog } from '../agents/outside-agents.js';
import { InvalidIdError } from '../errors.js';
import { agentsOf, type RegistryAgentsOption } from './registry-agents.js';
import type { RegistryState } from './registry-state.js';
import { checkListOrchestrators, checkOrchestratorEdit } from '../validation/low-level-args.js';

// The canonical spelling of a plausible id of any agent the catalog knows, built-ins first (uuids lower-cased, OpenCode
// ids as they are), or null.
function canonical(agents: AgentCatalog<string>, id: string): string | null {
  for (const agent of agents.names) {
    const ok = agents.canonical(agent, id);
    if (ok !== null) return ok;
  }
  return null;
}

function same(agents: AgentCatalog<string>, a: string, b: string): boolean {
  return (canonical(agents, a) ?? a) === (canonical(agents, b) ?? b);
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
 * InvalidIdError for anything that is not some agent's plausible id (a built-in's, or one of `opts.agents`').
 * @public
 */
export function addOrchestrator(draft: RegistryState, id: string, opts: RegistryAgentsOption<string> = {}): boolean {
  checkOrchestratorEdit([draft, id, opts]);
  const agents = agentsOf(opts);
  const ok = canonical(agents, id);
  if (ok === null) throw new InvalidIdError('orchestrator', id);
  if (draft.orchestrator_uuids.some((x) => same(agents, x, ok))) return false;
  draft.orchestrator_uuids.push(ok);
  return true;
}

/**
 * Unregisters an orchestrator id from a draft (a uuid in any case; an id of one of `opts.agents` in its canonical
 * spelling); false when it was not there.
 * @public
 */
export function removeOrchestrator(draft: RegistryState, id: string, opts: RegistryAgentsOption<string> = {}): boolean {
  checkOrchestratorEdit([draft, id, opts]);
  const agents = agentsOf(opts);
  const ids = draft.orchestrator_uuids;
  const before = ids.length;
  for (let i = ids.length - 1; i >= 0; i--) if (same(agents, ids[i] as string, id)) ids.splice(i, 1);
  return ids.length !== before;
}

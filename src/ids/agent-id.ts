import { InvalidIdError } from '../errors.js';
import { type AgentName, builtinAgent } from './agent-names.js';

/**
 * How an agent's conversation ids look: `uuid` (8-4-4-4-12 hex, v4 or v7), OpenCode's `ses_…`, or Hermes' stamped ids
 * (`YYYYMMDD_HHMMSS_<6|8|12 hex>`, `cron_<job>_<YYYYMMDD_HHMMSS>`) and uuids.
 * @public
 */
export type IdShape = 'uuid' | 'opencode' | 'hermes';

/**
 * The id shape an agent uses.
 * @public
 */
export function idShape(agent: AgentName): IdShape {
  return builtinAgent(agent).ids.shape as IdShape;
}

export { isUuid } from '../agents/contract/uuid.js';

/**
 * The canonical spelling of a plausible id for `agent` (uuids lower-cased, every other shape compared exactly), or null
 * for anything else —
 * `../x`, absolute paths, empty strings, NUL bytes, `memory`, another agent's id shape.
 * A null id must reach no path at all.
 * @public
 */
export function normalizeAgentId(agent: AgentName, id: unknown): string | null {
  return typeof id === 'string' ? builtinAgent(agent).ids.canonical(id) : null;
}

/**
 * True when {@link normalizeAgentId} accepts the id.
 * @public
 */
export function isPlausibleId(agent: AgentName, id: unknown): boolean {
  return normalizeAgentId(agent, id) !== null;
}

/**
 * The canonical id, or an {@link InvalidIdError}.
 * @public
 */
export function requireAgentId(agent: AgentName, id: unknown): string {
  const ok = normalizeAgentId(agent, id);
  if (ok === null) throw new InvalidIdError(agent, String(id));
  return ok;
}

/**
 * Every spelling to search command lines and environments for: a uuid in lower and upper case, any other id as is.
 * Empty for an implausible id.
 * @public
 */
export function idSpellings(agent: AgentName, id: unknown): string[] {
  const canonical = normalizeAgentId(agent, id);
  if (canonical === null) return [];
  const ids = builtinAgent(agent).ids;
  return ids.spellings === undefined ? [canonical] : ids.spellings(canonical);
}

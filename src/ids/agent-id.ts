import { assertNever } from '../assert-never.js';
import { InvalidIdError } from '../errors.js';
import { type AgentName, requireAgentName } from './agent-names.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// OpenCode: `ses_` + 12 hex (time-ordered, newest sorts first) + 14 base62.
const OPENCODE_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;
// Hermes: `YYYYMMDD_HHMMSS_<6|8|12 hex>` (CLI/TUI, gateway, imports), `cron_<job>_<YYYYMMDD_HHMMSS>`, or a uuid (ACP, API).
const HERMES_STAMPED = /^[0-9]{8}_[0-9]{6}_(?:[0-9a-f]{12}|[0-9a-f]{8}|[0-9a-f]{6})$/;
const HERMES_CRON = /^cron_[0-9A-Za-z][0-9A-Za-z_-]{0,63}_[0-9]{8}_[0-9]{6}$/;

/**
 * How an agent's conversation ids look: `uuid` (8-4-4-4-12 hex, v4 or v7), OpenCode's `ses_…`, or Hermes' stamped ids
 * (`YYYYMMDD_HHMMSS_<6|8|12 hex>`, `cron_<job>_<YYYYMMDD_HHMMSS>`) and uuids.
 * @public
 */
export type IdShape = 'uuid' | 'opencode' | 'hermes';

const SHAPES = {
  claude: 'uuid',
  agy: 'uuid',
  codex: 'uuid',
  grok: 'uuid',
  hermes: 'hermes',
  opencode: 'opencode',
} as const satisfies Record<AgentName, IdShape>;

/**
 * The id shape an agent uses.
 * @public
 */
export function idShape(agent: AgentName): IdShape {
  return SHAPES[requireAgentName(agent)];
}

/**
 * True when `id` is shaped like a uuid (any case).
 * @public
 */
export function isUuid(id: unknown): id is string {
  return typeof id === 'string' && UUID.test(id);
}

/**
 * The canonical spelling of a plausible id for `agent` (uuids lower-cased, every other shape compared exactly), or null
 * for anything else —
 * `../x`, absolute paths, empty strings, NUL bytes, `memory`, another agent's id shape.
 * A null id must reach no path at all.
 * @public
 */
export function normalizeAgentId(agent: AgentName, id: unknown): string | null {
  if (typeof id !== 'string') return null;
  const shape = idShape(agent);
  switch (shape) {
    case 'uuid':
      return UUID.test(id) ? id.toLowerCase() : null;
    case 'opencode':
      return OPENCODE_ID.test(id) ? id : null;
    case 'hermes':
      if (UUID.test(id)) return id.toLowerCase();
      return HERMES_STAMPED.test(id) || HERMES_CRON.test(id) ? id : null;
    default:
      return assertNever(shape, 'id shape');
  }
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
  return isUuid(canonical) && idShape(agent) !== 'opencode' ? [canonical, canonical.toUpperCase()] : [canonical];
}

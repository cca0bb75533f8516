import { AGENT_NAMES, OWN_KEYS } from '../ids/agent-names.js';
import { SESSION_STATUSES } from './session-row.js';

// A cheap sufficient check for SessionRowSchema (session-row.ts): when it says true, the schema accepts the row, so a
// caller may skip zod; when it says false, zod decides (and words the error). It accepts a subset of what the schema
// does (numbers only as safe integers, mappings only with a plain prototype), never more. Keep it in step with
// SessionRowSchema: test/property/registry-row-check.property.test.ts compares the two.

const AGENTS: ReadonlySet<unknown> = new Set<unknown>(AGENT_NAMES);
const STATUSES: ReadonlySet<unknown> = new Set<unknown>(SESSION_STATUSES);
const SOURCES: ReadonlySet<unknown> = new Set<unknown>(['discovered', 'pending-discovery', 'assigned']);

// `z.string().nullable().optional()` fields.
const TEXT_FIELDS: readonly string[] = ['role', 'herdr_session', 'herdr_server', 'herdr_workspace', 'herdr_session_created_at', ...OWN_KEYS];

function optText(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

function plainMapping(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/**
 * True only when SessionRowSchema surely accepts `row` (a plain mapping); false means "ask the schema".
 * @public
 */
export function rowSurelyValid(row: Record<string, unknown>): boolean {
  const name = row['name'];
  if (typeof name !== 'string' || name.length === 0) return false;
  if (!STATUSES.has(row['status'])) return false;
  const agent = row['agent'];
  if (agent !== undefined && !AGENTS.has(agent)) return false;
  for (const f of TEXT_FIELDS) if (!optText(row[f])) return false;
  const epoch = row['herdr_session_epoch'];
  if (epoch !== undefined && epoch !== null && !Number.isSafeInteger(epoch)) return false;
  const source = row['session_id_source'];
  if (source !== undefined && source !== null && !SOURCES.has(source)) return false;
  const verified = row['session_id_verified'];
  if (verified !== undefined && verified !== null && typeof verified !== 'boolean') return false;
  const pane = row['pane'];
  if (pane === undefined || pane === null) return true;
  if (!plainMapping(pane)) return false;
  const pid = pane['pid'];
  if (pid !== undefined && pid !== null && !Number.isSafeInteger(pid)) return false;
  return optText(pane['cwd']) && optText(pane['cmd']);
}

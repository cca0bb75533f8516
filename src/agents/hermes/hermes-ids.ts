import { canonicalUuid, isUuid, uuidSpellings } from '../contract/uuid.js';

// Hermes: `YYYYMMDD_HHMMSS_<6|8|12 hex>` (CLI/TUI, gateway, imports), `cron_<job>_<YYYYMMDD_HHMMSS>`, or a uuid (ACP, API).
const HERMES_STAMPED = /^[0-9]{8}_[0-9]{6}_(?:[0-9a-f]{12}|[0-9a-f]{8}|[0-9a-f]{6})$/;
const HERMES_CRON = /^cron_[0-9A-Za-z][0-9A-Za-z_-]{0,63}_[0-9]{8}_[0-9]{6}$/;

/**
 * The canonical spelling of a plausible Hermes id — a uuid lower-cased, a stamped or cron id as is — or null for anything
 * else (`../x`, '', a NUL byte, another agent's shape): a null id reaches no path.
 * @public
 */
export function canonicalHermesId(id: unknown): string | null {
  if (typeof id !== 'string') return null;
  if (isUuid(id)) return canonicalUuid(id);
  return HERMES_STAMPED.test(id) || HERMES_CRON.test(id) ? id : null;
}

/**
 * Every spelling of a canonical Hermes id to search command lines and environments for: a uuid in lower and upper case,
 * a stamped or cron id as is.
 * @public
 */
export function hermesIdSpellings(canonical: string): string[] {
  return isUuid(canonical) ? uuidSpellings(canonical) : [canonical];
}

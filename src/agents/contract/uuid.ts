// The uuid shape most agents' ids take (8-4-4-4-12 hex, v4 or v7, any case): one place for every agent folder and for
// a third-party definition (`uuidIds`).
import type { AgentIds } from './agent-definition.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * True when `id` is shaped like a uuid (any case).
 * @public
 */
export function isUuid(id: unknown): id is string {
  return typeof id === 'string' && UUID.test(id);
}

/**
 * The canonical (lower-case) spelling of a uuid, or null for anything else.
 * @public
 */
export function canonicalUuid(id: unknown): string | null {
  return isUuid(id) ? id.toLowerCase() : null;
}

/** A canonical uuid in both cases, as command lines and environments may spell it. */
export function uuidSpellings(canonical: string): string[] {
  return [canonical, canonical.toUpperCase()];
}

/**
 * The `ids` of an agent whose conversation ids are uuids: canonical in lower case, searched in both cases.
 * @example
 * ```ts
 * const notes = defineAgent({ name: 'notes', ids: uuidIds(), … });
 * ```
 * @public
 */
export function uuidIds(): AgentIds {
  return { shape: 'uuid', canonical: canonicalUuid, spellings: uuidSpellings, caseInsensitive: true };
}

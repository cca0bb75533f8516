// Claude Code's conversation ids: uuids (v4, the library picks them), written lower-case on disk.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/**
 * The canonical spelling of a plausible Claude id (a uuid, lower-cased), or null for anything else (`../x`, `memory`,
 * '', another agent's id shape): a null id reaches no path.
 * @public
 */
export function canonicalClaudeId(id: unknown): string | null {
  return typeof id === 'string' && UUID.test(id) ? id.toLowerCase() : null;
}

/**
 * The spellings of a canonical Claude id to search command lines and environments for: lower and upper case.
 * @public
 */
export function claudeIdSpellings(canonical: string): string[] {
  return [canonical, canonical.toUpperCase()];
}

// Codex thread ids: uuids (v7 in practice, any version accepted), compared case-insensitively.
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The canonical (lower-case) spelling of a plausible Codex thread id, or null for anything else. */
export function codexCanonicalId(id: string): string | null {
  return UUID.test(id) ? id.toLowerCase() : null;
}

/** The spellings of a canonical Codex thread id to search command lines and environments for: lower and upper case. */
export function codexIdSpellings(canonical: string): string[] {
  return [canonical, canonical.toUpperCase()];
}

/** A grok session id: a uuid (v4 when mam picks it, v7 when grok does), any case. */
const GROK_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The canonical (lower-case) spelling of a grok session id, or null for anything that is no uuid. */
export function canonicalGrokId(id: string): string | null {
  return GROK_ID.test(id) ? id.toLowerCase() : null;
}

/** An agy conversation id: a uuid, any case. */
const AGY_ID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

/** The canonical (lower-case) spelling of an agy conversation id, or null for anything that is no uuid. */
export function canonicalAgyId(id: string): string | null {
  return AGY_ID.test(id) ? id.toLowerCase() : null;
}

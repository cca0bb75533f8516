/**
 * OpenCode's session id: `ses_` + 12 hex (time-ordered, newest sorts first) + 14 base62.
 * @public
 */
export const OPENCODE_ID = /^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/;

/**
 * The canonical spelling of an OpenCode session id (compared exactly, never case-folded), or null for anything else.
 * @public
 */
export function canonicalOpencodeId(id: unknown): string | null {
  return typeof id === 'string' && OPENCODE_ID.test(id) ? id : null;
}

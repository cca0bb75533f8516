import { nodeCrypto } from '../lazy-crypto.js';

const VALID_AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Characters kept from a name before the hash suffix (23 + '-' + 8 hex = 32, herdr's limit). */
const KEPT_PREFIX_LENGTH = 23;

/**
 * True when herdr accepts `name` as an agent name: `[a-z][a-z0-9_-]{0,31}`.
 * @public
 */
export function isValidHerdrAgentName(name: string): boolean {
  return VALID_AGENT_NAME.test(name);
}

/**
 * The name herdr registers an agent under: a valid name unchanged, any other name made valid and suffixed with a hash of the original.
 *
 * @example
 * ```ts
 * sanitizeHerdrAgentName('reviewer'); // 'reviewer'
 * sanitizeHerdrAgentName('Claude Reviewer #2'); // 'claude-reviewer--2-' + 8 hex digits
 * ```
 * @public
 */
export function sanitizeHerdrAgentName(name: string): string {
  if (isValidHerdrAgentName(name)) return name;
  let slug = name.toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  if (!/^[a-z]/.test(slug)) slug = `a${slug}`;
  // UTF-8 would turn every lone surrogate into U+FFFD (two names, one hash): hash such a name's UTF-16 units instead.
  const encoding = LONE_SURROGATE.test(name) ? 'utf16le' : 'utf8';
  const hash = nodeCrypto().createHash('sha1').update(name, encoding).digest('hex').slice(0, 8);
  return `${slug.slice(0, KEPT_PREFIX_LENGTH)}-${hash}`;
}

import { canonicalUuid, uuidSpellings } from '../contract/uuid.js';

// claude's conversation ids are uuids, any case (canonical lower-case); their one rule lives in contract/uuid.ts.
/** The canonical (lower-case) spelling of a plausible claude id, or null for anything else: a null id reaches no path. */
export const canonicalClaudeId: (id: unknown) => string | null = canonicalUuid;
/** The spellings of a canonical claude id to search command lines and environments for: lower and upper case. */
export const claudeIdSpellings: (canonical: string) => string[] = uuidSpellings;

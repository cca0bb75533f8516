import { canonicalUuid, uuidSpellings } from '../contract/uuid.js';

// codex's conversation ids are uuids, any case (canonical lower-case); their one rule lives in contract/uuid.ts.
/** The canonical (lower-case) spelling of a plausible codex id, or null for anything else: a null id reaches no path. */
export const canonicalCodexId: (id: unknown) => string | null = canonicalUuid;
/** The spellings of a canonical codex id to search command lines and environments for: lower and upper case. */
export const codexIdSpellings: (canonical: string) => string[] = uuidSpellings;

import { canonicalUuid, uuidSpellings } from '../contract/uuid.js';

// grok's conversation ids are uuids, any case (canonical lower-case); their one rule lives in contract/uuid.ts.
/** The canonical (lower-case) spelling of a plausible grok id, or null for anything else: a null id reaches no path. */
export const canonicalGrokId: (id: unknown) => string | null = canonicalUuid;
/** The spellings of a canonical grok id to search command lines and environments for: lower and upper case. */
export const grokIdSpellings: (canonical: string) => string[] = uuidSpellings;

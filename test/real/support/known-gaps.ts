// Checks the current adapters fail, each one assertion, run with `it.fails` so the suite stays green and a fix shows up
// as "expected to fail but passed": then delete the name here. Empty on the pinned versions (issue 18 closed the last two).
import { it } from 'vitest';

export const KNOWN_GAPS = new Set<string>([
]);

/** `it`, or `it.fails` when the check is a known gap of the current adapters (MAM_REAL_GAPS=show: plain `it`, to see why). */
export function check(name: string): typeof it | typeof it.fails {
  return KNOWN_GAPS.has(name) && process.env['MAM_REAL_GAPS'] !== 'show' ? it.fails : it;
}

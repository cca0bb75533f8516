/**
 * True when the pane process generation `<pane_id>:<pid>:<start>` belongs to `pane`: a whole-segment prefix, so `w2X:p1` never matches `w2X:p10:…`, and an empty pane matches nothing.
 * @example
 * ```ts
 * paneMatchesGeneration('w2X:p1', 'w2X:p1:1234:t'); // true
 * paneMatchesGeneration('w2X:p1', 'w2X:p10:1234:t'); // false
 * ```
 * @public
 */
export function paneMatchesGeneration(pane: unknown, generation: unknown): boolean {
  if (typeof pane !== 'string' || typeof generation !== 'string' || pane === '') return false;
  return generation.startsWith(`${pane}:`) && generation.length > pane.length + 1;
}

import type { IdOrderMarker } from './id-order-marker.js';

/**
 * A marker the gate judged removable but could not remove (the unlink failed): it stays on disk and is judged again at
 * every look, so it blocks nothing a removed one would not; a person may have to remove it by hand.
 * @public
 */
export interface IdOrderUnremoved {
  /** The marker file that stays. */
  file: string;
  /** Its content when it was judged. */
  marker: IdOrderMarker;
  /** The verdict that would have let it go (as in {@link IdOrderPruned}). */
  reason: 'own-leftover' | 'registered' | 'gone';
  /** Why the removal failed (the port's error message). */
  error: string;
}

/**
 * One line for a person: which marker stays, why it could go, and why it did not.
 * @public
 */
export function idOrderUnremovedText(u: IdOrderUnremoved): string {
  return `could not remove the ${u.reason} marker of ${JSON.stringify(u.marker.session)} (${u.file}): ${u.error}; it blocks nothing, remove it by hand`;
}

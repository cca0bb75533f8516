import type { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';
import { sameInstance } from './same-instance.js';

/**
 * The row fields a failed AutoPin leaves: the reason, when (ISO 8601), and the job it was for; a later pin clears them.
 * @public
 */
export const AUTOPIN_ERROR_FIELDS = ['autopin_error', 'autopin_error_at', 'autopin_error_job'] as const;

/**
 * Leaves an AutoPin failure on the row `seen` names (only while it is the same session instance), in one locked update;
 * true when it was written. A registry fault rejects.
 * @public
 */
export async function notePinFailure(registry: SessionRegistry, seen: SessionRow, note: { reason: string; at: string; jobId: string }): Promise<boolean> {
  return registry.update((draft) => {
    const row = sameInstance(draft, seen);
    if (typeof row === 'string') return false;
    row.autopin_error = note.reason;
    row.autopin_error_at = note.at;
    row.autopin_error_job = note.jobId;
    return true;
  });
}

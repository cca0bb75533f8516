import type { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';
import { describeError } from '../errors.js';

/**
 * Registers a new session's row in one locked update: replaces a stopped or terminated row of that name in place, or
 * appends it; refuses (changing nothing) when a running row of that name is there. A registry fault is returned, not thrown.
 * @public
 */
export async function registerSessionRow(registry: SessionRegistry, row: SessionRow): Promise<'registered' | { message: string; cause?: unknown }> {
  try {
    return await registry.update((draft) => {
      const at = draft.herdr_sessions.findIndex((r) => r.name === row.name);
      if (at === -1) draft.herdr_sessions.push(row);
      else if (draft.herdr_sessions[at]?.status === 'running') return { message: 'a running row of that name was registered meanwhile' };
      else draft.herdr_sessions[at] = row;
      return 'registered' as const;
    });
  } catch (err) {
    return { message: `the registry update failed: ${describeError(err)}`, cause: err };
  }
}

import { formatArtifact } from '../purge/artifact.js';
import type { SessionRow } from '../registry/session-row.js';
import type { LifecycleContext } from './lifecycle-context.js';
import { LifecycleStepError } from './lifecycle-step-error.js';
import type { StopExit, StopResult } from './stop-result.js';

// Removes this instance of the row; false when it is gone or another instance now.
async function removeRow(c: LifecycleContext, row: SessionRow): Promise<boolean> {
  return c.registry.update((draft) => {
    const before = draft.herdr_sessions.length;
    draft.herdr_sessions = draft.herdr_sessions.filter((r) => !(r.name === row.name && r.herdr_session_created_at === row.herdr_session_created_at));
    return draft.herdr_sessions.length !== before;
  });
}

/**
 * The refusal text of a stop whose purge was refused: the conversation is in use, the records are preserved.
 * @public
 */
export function recordsPreservedMessage(row: SessionRow, id: string, agent: string, holders: readonly { pid: number; command: string }[], hints: readonly string[]): string {
  return [
    `purge refused: conversation ${id} of ${JSON.stringify(row.name)} is still in use (agent: ${agent}); records preserved: the row stays stopped with its id, nothing was removed`,
    ...holders.map((h) => `  holder pid ${h.pid}: ${h.command}`),
    ...hints.map((h) => `  see: ${h}`),
  ].join('\n');
}

/**
 * The purge half of a stop: purges the stopped row's recorded conversation (the in-use gate first) and removes the row,
 * or keeps it when the purge is refused (`records-preserved`) or leaves residual (`failed` at `purge`). A row that records
 * no id is removed with nothing to purge.
 * @public
 */
export async function purgeStoppedRow(c: LifecycleContext, agent: string, row: SessionRow, id: string | null, exit: StopExit): Promise<StopResult> {
  // Not scoped to the row's workspace: the row records the id, and leftovers of a partial purge verify nowhere.
  const purge = id === null ? null : await c.purge.purge(agent, id, { home: c.home, ...(c.env === undefined ? {} : { env: c.env }) });
  if (purge?.kind === 'in-use' && id !== null) {
    return { kind: 'records-preserved', row, id, exit, holders: purge.holders, hints: purge.hints, message: recordsPreservedMessage(row, id, agent, purge.holders, purge.hints) };
  }
  // A purge that left part of the conversation keeps the row (stopped, with its id): without it nothing would know the
  // id to finish the purge with.
  if ((purge?.kind === 'purged' || purge?.kind === 'partial') && purge.residual.length > 0) {
    const left = `the purge of ${id ?? '?'} left ${purge.residual.length} item(s) on disk: ${purge.residual.map((a) => formatArtifact(a, { reason: true })).join(', ')}; the row stays stopped with its id: stop it with purge again once they can be removed`;
    return { kind: 'failed', step: 'purge', row, error: new LifecycleStepError('purge', row.name, left) };
  }
  if (purge !== null && purge.kind !== 'purged' && purge.kind !== 'unresolved') {
    const why = purge.kind === 'changed' ? 'the disk changed while it ran' : purge.kind === 'in-use' || purge.kind === 'dry-run' ? purge.kind : purge.kind === 'partial' ? 'something of it is still on disk' : purge.reason;
    return { kind: 'failed', step: 'purge', row, error: new LifecycleStepError('purge', row.name, `the purge of ${id ?? '?'} removed nothing (${purge.kind}: ${why}); the row stays stopped with its id`) };
  }
  if (!(await removeRow(c, row))) {
    return { kind: 'failed', step: 'purge', row, error: new LifecycleStepError('purge', row.name, 'the conversation was purged but the row was removed or replaced by another instance meanwhile') };
  }
  return { kind: 'purged-and-removed', row, id, exit, purge };
}

import { describeError, MamError } from '../errors.js';
import { idsClaimedByOthers } from '../registry/ids-claimed-by-others.js';
import { recordedId, rowAgent } from '../registry/row-agent.js';
import { rowByName } from '../registry/row-lookup.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import type { SessionRow } from '../registry/session-row.js';
import type { AutoPinResult } from './autopin-result.js';
import { captureRowId } from './capture-row-id.js';
import { followContinuation } from './follow-continuation.js';
import { notePinFailure } from './note-pin-failure.js';
import { pinGuarded } from './pin-guarded.js';
import type { RowCaptureDeps } from './row-capture-deps.js';

/**
 * What pinning a job's row works with.
 * @public
 */
export interface PinJobRowDeps extends RowCaptureDeps {
  /** The workspace's registry, read for the row and written through a guarded update. */
  registry: SessionRegistry;
}

function message(err: unknown): string {
  return describeError(err);
}

async function failed(deps: PinJobRowDeps, jobId: string, row: SessionRow, reason: string, candidates: string[]): Promise<AutoPinResult<string>> {
  const at = new Date(deps.ports.clock.now()).toISOString();
  try {
    const noted = await notePinFailure(deps.registry, row, { reason, at, jobId });
    return { kind: 'failed', jobId, name: row.name, reason, candidates, noted };
  } catch (err) {
    return { kind: 'failed', jobId, name: row.name, reason: `${reason}; the reason could not be left on the row (${message(err)})`, candidates, noted: false };
  }
}

/**
 * AutoPin's work for the row `name` of a completed job: capture the live session's id (herdr first, verified on disk) and
 * pin it through a guarded registry update; a failure is left on the row. A row that already records an id is re-pinned
 * to the id its conversation continues under now, when the agent says it moved ({@link followContinuation}). A registry or port fault becomes a `failed`
 * result that says so. A row of an outside agent is handled like a built-in's when `deps.agents` has its definition.
 * @public
 */
export async function pinJobRow(deps: PinJobRowDeps, jobId: string, name: string): Promise<AutoPinResult<string>> {
  let row: SessionRow | undefined;
  try {
    const state = await deps.registry.snapshot();
    row = rowByName(state, name);
    if (row === undefined) return { kind: 'failed', jobId, name, reason: `no row named ${JSON.stringify(name)} in the registry`, candidates: [], noted: false };
    const known = { agents: deps.agents };
    const agent = rowAgent<string>(row, known);
    if (agent === undefined) return await failed(deps, jobId, row, "the row's agent cannot be told", []);
    const has = recordedId(row, known);
    // Every own key the registry knows counts (it may know more agents than AutoPin was given).
    const claimed = idsClaimedByOthers(state, name, { agents: deps.registry.agents });
    if (has !== null) {
      // A recorded conversation may continue under another id now (Hermes' compression): follow it.
      const followed = row.status === 'running' ? await followContinuation(deps, row, agent, has, claimed) : { kind: 'unchanged' as const };
      if (followed.kind === 'followed') return { kind: 'pinned', jobId, name, agent, id: followed.id, source: 'disk' };
      const why = followed.kind === 'refused' ? ` (its continuation was not followed: ${followed.reason})` : '';
      return { kind: 'skipped', jobId, name, reason: `the row already records its conversation id${why}` };
    }
    if (row.status !== 'running') return await failed(deps, jobId, row, `the session is ${row.status}, not running`, []);
    const cap = await captureRowId(deps, row, agent, claimed);
    if (cap.kind === 'none') return await failed(deps, jobId, row, cap.reason, cap.candidates);
    const pinned = await pinGuarded(deps.registry, row, agent, cap.id);
    if (pinned === 'pinned') return { kind: 'pinned', jobId, name, agent, id: cap.id, source: cap.source };
    if (pinned === 'row-gone') return { kind: 'failed', jobId, name, reason: 'the row was removed meanwhile', candidates: [cap.id], noted: false };
    return await failed(deps, jobId, row, pinned, [cap.id]);
  } catch (err) {
    if (!(err instanceof MamError)) throw err;
    return { kind: 'failed', jobId, name, reason: `registry error: ${err.message}`, candidates: [], noted: false };
  }
}

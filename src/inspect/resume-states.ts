// The public `resumeStates`: its body (resume-states-impl.ts: the stores' verify) is loaded on the first call, so
// importing @mam/core does not load it.
import type { SessionRow } from '../registry/session-row.js';
import type { ResumeState, ResumeStatesOptions } from './resume-states-impl.js';

export type { ResumeState, ResumeStatesOptions } from './resume-states-impl.js';

/**
 * The resume state of every row, in order, in one pass: each agent's store is opened once for the whole call (not once
 * per row), and the adapters (with OpenCode's `debug paths` answer) are the ports' one shared set.
 * @example
 * ```ts
 * const states = await resumeStates((await registry.snapshot()).herdr_sessions, { workspace, home });
 * ```
 * @public
 */
export async function resumeStates(rows: readonly SessionRow[], opts: ResumeStatesOptions): Promise<ResumeState[]> {
  return (await import('./resume-states-impl.js')).resumeStates(rows, opts);
}

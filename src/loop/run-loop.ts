// The public `runLoop`: its body (run-loop-impl.ts: the guard, the watch, the shadow policy, AutoPin) is loaded on the
// first call, so importing @mam/core does not load it.
import type { LoopOutcome, RunLoopOptions } from './run-loop-types.js';

/**
 * `mam loop`: under the loop guard (refused while another loop or a reset holds it — "Another multi-agent-mux-loop is
 * already running"), for a registered, running, idle creator: registers and claims a job for its session, prompts it
 * through herdr, records the dispatch, watches it (execution anchor, then quiescence), evaluates the shadow policy on each
 * observation, marks the job completed through the engine when the agent finishes, and runs AutoPin. The guard is released
 * on every exit.
 * @example
 * ```ts
 * const out = await runLoop({ workspace: '/repo', creator: 'creator-agy-01', task: 'write the report', deps: autopinLoopDeps('/repo') });
 * if (out.kind === 'refused') process.exitCode = 1;
 * ```
 * @public
 */
export async function runLoop(o: RunLoopOptions): Promise<LoopOutcome> {
  return (await import('./run-loop-impl.js')).runLoop(o);
}

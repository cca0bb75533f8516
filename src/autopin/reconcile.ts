// The public `reconcile`: its body (reconcile-impl.ts: capture, pin, the registry) is loaded on the first call, so
// importing @mam/core does not load it.
import type { ReconcileOptions, ReconcileReport } from './reconcile-impl.js';

export type { ReconcileEntry, ReconcileOptions, ReconcileReport } from './reconcile-impl.js';

/**
 * Drift C of a workspace: every running post-discovered row (agy, codex, hermes, opencode, or an outside agent of
 * `opts.agents` whose ids are post-discovered) with no pinned id gets the
 * capture AutoPin uses (herdr's report first, verified on disk; else the adapter's capture rule). A dry run by default —
 * the registry is not written and an id proposed for one row counts as claimed for the next; with `apply` each captured id
 * is pinned through a guarded update. Rows are taken one at a time, in registry order. A workspace that is not an
 * absolute path to an existing directory, or a bad option, throws an {@link InvalidArgumentError} naming it.
 * @example
 * ```ts
 * const { entries } = await reconcile('/repo');            // what would be pinned
 * await reconcile('/repo', { apply: true });               // pin it
 * ```
 * @public
 */
export async function reconcile<Extra extends string = never>(workspace: string, options: ReconcileOptions<Extra> = {}): Promise<ReconcileReport<Extra>> {
  return (await import('./reconcile-impl.js')).reconcile<Extra>(workspace, options);
}

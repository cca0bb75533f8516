// The public LoopGuard: its body (loop-guard-impl.ts: the marker, its lock, the liveness rules) is loaded on the first
// call, so importing @mam/core does not load it.
import { join } from 'node:path';
import { checkPathArg } from '../validation/workspace-args.js';
import type { LoopGuardAcquire, LoopGuardImpl, PidMarkerState } from './loop-guard-impl.js';
import { checkLoopGuardOptions, type LoopGuardOptions } from './loop-guard-options.js';

export type { LoopGuardAcquire, LoopGuardHandle, PidMarker, PidMarkerState } from './loop-guard-impl.js';
export type { LoopGuardOptions } from './loop-guard-options.js';

/**
 * A pid-marker guard (by default the loop guard `.mam/loop-guard-active`): a loop run or a reset holds it for its whole run,
 * and a second holder is refused while the first one's process lives. Acquiring is atomic across processes: under the
 * guard's own lock, an exclusive create, or a stale marker moved aside (and checked to be the one judged) first.
 * @example
 * ```ts
 * const got = await new LoopGuard('/repo').acquire({ holder: 'loop' });
 * if (got.kind === 'refused') throw new Error(got.message);
 * try { await work(); } finally { await got.guard.release(); }
 * ```
 * @public
 */
export class LoopGuard {
  /** The marker file. */
  readonly path: string;
  readonly #impl: () => Promise<LoopGuardImpl>;

  /** A guard on `<workspace>/.mam/loop-guard-active` (or `markerPath`); nothing is read until a call. */
  constructor(workspace: string, options: LoopGuardOptions = {}) {
    checkPathArg('workspace', workspace);
    const opts = checkLoopGuardOptions(options);
    this.path = opts.markerPath ?? join(workspace, '.mam', 'loop-guard-active');
    let made: Promise<LoopGuardImpl> | undefined;
    this.#impl = () => (made ??= import('./loop-guard-impl.js').then((m) => new m.LoopGuardImpl(workspace, opts)));
  }

  /** What the marker means now; never writes. */
  async inspect(): Promise<PidMarkerState> {
    return (await this.#impl()).inspect();
  }

  /** Takes the guard, or refuses while a live holder has it ("Another multi-agent-mux-loop is already running"). */
  async acquire(opts: { holder?: string } = {}): Promise<LoopGuardAcquire> {
    return (await this.#impl()).acquire(opts);
  }
}

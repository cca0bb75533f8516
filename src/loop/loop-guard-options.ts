// The options of LoopGuard and their check (kept apart so that the guard, loop-guard.ts, need not load its body to check them).
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { Ports } from '../ports/index.js';
import { absolutePathSchema } from '../validation/common-schemas.js';
import { checkOptions, msSchema, objectSchema, optionsSchema } from '../validation/workspace-args.js';

/**
 * Options of {@link LoopGuard}.
 * @public
 */
export interface LoopGuardOptions {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** The marker file; default `<workspace>/.mam/loop-guard-active` (the reset's update marker works the same way). */
  markerPath?: string;
  /** Give up waiting for the guard's own lock after this long (default 10 000 ms). */
  lockTimeoutMs?: number;
}

const guardOptions = lazySchema((z: Zod) => optionsSchema(z, { ports: objectSchema(z), markerPath: absolutePathSchema(z), lockTimeoutMs: msSchema(z) }));

/** Checks {@link LoopGuard}'s options: markerPath absolute, the lock timeout finite and not negative. */
export function checkLoopGuardOptions(opts: LoopGuardOptions | undefined): LoopGuardOptions {
  return checkOptions(guardOptions, 'opts', opts);
}


import { lazySchema, type Zod } from '../lazy-zod.js';
import type { DispatchStoreOptions } from '../loop/dispatch-store.js';
import type { HerdrWatcherOptions } from '../loop/herdr-watcher.js';
import type { LoopGuardOptions } from '../loop/loop-guard.js';
import type { ReconnectBackoffOptions } from '../loop/reconnect-backoff.js';
import type { ShadowRunnerOptions } from '../loop/shadow-runner.js';
import { absolutePathSchema, parseArgument } from './common-schemas.js';
import { checkOptions, msSchema, nameSchema, objectSchema, optionsSchema } from './workspace-args.js';

const guardOptions = lazySchema((z: Zod) => optionsSchema(z, { ports: objectSchema(z), markerPath: absolutePathSchema(z), lockTimeoutMs: msSchema(z) }));
const storeOptions = lazySchema((z: Zod) => optionsSchema(z, { ports: objectSchema(z), lockTimeoutMs: msSchema(z) }));

/** Checks {@link LoopGuard}'s options: markerPath absolute, the lock timeout finite and not negative. */
export function checkLoopGuardOptions(opts: LoopGuardOptions | undefined): LoopGuardOptions {
  return checkOptions(guardOptions, 'opts', opts);
}

/** Checks {@link DispatchStore}'s options. */
export function checkDispatchStoreOptions(opts: DispatchStoreOptions | undefined): DispatchStoreOptions {
  return checkOptions(storeOptions, 'opts', opts);
}

const backoffOptions = lazySchema((z: Zod) => optionsSchema(z, { baseMs: msSchema(z), maxMs: msSchema(z) }));
const watcherOptions = lazySchema((z: Zod) =>
  z.object({ agent: nameSchema(z), session: nameSchema(z).optional(), ports: objectSchema(z).optional(), backoff: z.unknown().optional() }, { error: 'must be an object' }).loose());
const runnerOptions = lazySchema((z: Zod) => z.object({ workspace: absolutePathSchema(z), policy: objectSchema(z).optional(), ports: objectSchema(z).optional() }, { error: 'must be an object' }).loose());

/** Checks {@link ReconnectBackoff}'s options (finite, not negative ms). */
export function checkBackoffOptions(opts: ReconnectBackoffOptions | undefined, param = 'opts'): ReconnectBackoffOptions {
  return checkOptions(backoffOptions, param, opts);
}

/** Checks the members of {@link HerdrWatcher}'s options that the wait rules do not (the agent, session, ports, backoff). */
export function checkWatcherOptions(opts: HerdrWatcherOptions): HerdrWatcherOptions {
  parseArgument(watcherOptions, 'opts', opts);
  checkBackoffOptions(opts.backoff, 'opts.backoff');
  return opts;
}

/** Checks {@link ShadowRunner}'s options (`workspace` absolute). */
export function checkShadowRunnerOptions(opts: ShadowRunnerOptions): ShadowRunnerOptions {
  parseArgument(runnerOptions, 'opts', opts);
  return opts;
}

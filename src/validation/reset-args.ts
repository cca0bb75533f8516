import { lazySchema, type Zod } from '../lazy-zod.js';
import type { ResetPlannerOptions } from '../reset/reset-planner.js';
import type { ResetRunOptions } from '../reset/run-reset.js';
import { envSchema, signalSchema } from './common-schemas.js';
import { lifecycleOptionShape } from './lifecycle-args.js';
import { checkOptions, functionSchema, objectSchema, optionsSchema } from './workspace-args.js';

const plannerOptions = lazySchema((z: Zod) => optionsSchema(z, { ports: objectSchema(z), lifecycle: optionsSchema(z, lifecycleOptionShape(z)) }));

const runOptions = lazySchema((z: Zod) => {
  const flag = z.boolean({ error: 'must be a boolean' });
  return optionsSchema(z, {
    yes: flag,
    dryRun: flag,
    interactive: flag,
    signal: signalSchema(z),
    onTrace: functionSchema(z),
    callerEnv: envSchema(z),
    confirm: functionSchema(z),
  });
});

const precheckOptions = lazySchema((z: Zod) => optionsSchema(z, { callerEnv: envSchema(z) }));

/** Checks {@link ResetPlanner}'s options (ports an object, the lifecycle options as {@link SessionLifecycle} takes them). */
export function checkResetPlannerOptions(opts: ResetPlannerOptions | undefined): ResetPlannerOptions {
  return checkOptions(plannerOptions, 'opts', opts);
}

/** Checks a reset run's options: booleans, an AbortSignal, callbacks, an environment object. */
export function checkResetRunOptions(opts: ResetRunOptions | undefined): ResetRunOptions {
  return checkOptions(runOptions, 'opts', opts);
}

/** Checks the precheck's options (`callerEnv` an environment object). */
export function checkPrecheckOptions(opts: { callerEnv?: Record<string, string | undefined> } | undefined): { callerEnv?: Record<string, string | undefined> } {
  return checkOptions(precheckOptions, 'opts', opts);
}

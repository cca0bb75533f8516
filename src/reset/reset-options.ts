// The options of ResetPlanner and its run, and their checks (kept together so nothing imports the planner back).
import { lazySchema, type Zod } from '../lazy-zod.js';
import type { SessionLifecycleOptions } from '../lifecycle/lifecycle-options.js';
import type { Ports } from '../ports/index.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import type { ResetRunOptions } from './run-reset.js';
import { envSchema, signalSchema } from '../validation/common-schemas.js';
import { lifecycleOptionShape } from '../lifecycle/lifecycle-options.js';
import { checkOptions, functionSchema, objectSchema, optionsSchema } from '../validation/workspace-args.js';

/**
 * Options of {@link ResetPlanner}.
 * @public
 */
export interface ResetPlannerOptions {
  /** Ports to use instead of the real ones; those not given are Node's ({@link nodePorts}). */
  ports?: Partial<Ports>;
  /** Passed to the {@link SessionLifecycle} the run stops and creates sessions with (home, agent env, timeouts). */
  lifecycle?: Omit<SessionLifecycleOptions, 'ports' | 'registry' | 'agents'>;
  /**
   * Agents defined outside the package (`defineAgent`), known after the built-ins: the registry's rows and the spec's
   * entries may name them, and their targets plan, stop, purge and are created like a built-in's. None by default.
   */
  agents?: readonly AgentDefinition<string>[];
}

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

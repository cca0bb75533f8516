import { lazySchema, type Zod } from '../lazy-zod.js';
import type { AutopinLoopDepsOptions } from '../autopin/autopin-loop-deps.js';
import type { AutoPinOptions } from '../autopin/autopin.js';
import type { ReconcileOptions } from '../autopin/reconcile.js';
import type { OrchestratorsOptions } from '../purge/orchestrators.js';
import type { OrchestratorRemoveOptions } from '../purge/orchestrators-result.js';
import { absolutePathSchema } from './common-schemas.js';
import { checkOptions, commonOptionShape, msSchema, objectSchema, optionsSchema } from './workspace-args.js';

const autoPinOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), registry: objectSchema(z), jobsDir: absolutePathSchema(z), lockTimeoutMs: msSchema(z) }));
const reconcileOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), registry: objectSchema(z), apply: z.boolean({ error: 'must be a boolean' }) }));
const loopDepsOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), jobsDir: absolutePathSchema(z) }));
const orchestratorsOptions = lazySchema((z: Zod) => optionsSchema(z, { ...commonOptionShape(z), registry: objectSchema(z) }));
const removeOptions = lazySchema((z: Zod) => {
  const flag = z.boolean({ error: 'must be a boolean' });
  return optionsSchema(z, { purgeConversation: flag, yes: flag, dryRun: flag });
});

/** Checks {@link AutoPin}'s options: home and jobsDir absolute, env strings, the lock timeout finite and not negative. */
export function checkAutoPinOptions(opts: AutoPinOptions | undefined): AutoPinOptions {
  return checkOptions(autoPinOptions, 'opts', opts);
}

/** Checks {@link reconcile}'s options. */
export function checkReconcileOptions(opts: ReconcileOptions | undefined): ReconcileOptions {
  return checkOptions(reconcileOptions, 'opts', opts);
}

/** Checks {@link autopinLoopDeps}'s options. */
export function checkLoopDepsOptions(opts: AutopinLoopDepsOptions | undefined): AutopinLoopDepsOptions {
  return checkOptions(loopDepsOptions, 'opts', opts);
}

/** Checks {@link Orchestrators}' options. */
export function checkOrchestratorsOptions(opts: OrchestratorsOptions | undefined): OrchestratorsOptions {
  return checkOptions(orchestratorsOptions, 'opts', opts);
}

/** Checks the options of {@link Orchestrators.remove} (booleans). */
export function checkOrchestratorRemoveOptions(opts: OrchestratorRemoveOptions | undefined): OrchestratorRemoveOptions {
  return checkOptions(removeOptions, 'opts', opts);
}

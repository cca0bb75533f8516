import { isValidJobId } from '../jobs/job-id.js';
import type { Ports } from '../ports/index.js';
import type { DispatchStore } from './dispatch-store.js';
import { objectOrUndefined } from './policy-evidence.js';
import type { PolicyScenario } from './policy-scenario.js';
import type { ShadowEntry } from './shadow-entry.js';
import { ShadowPolicy } from './shadow-policy.js';
import { lazySchema, type Zod } from '../lazy-zod.js';
import { absolutePathSchema, parseArgument } from '../validation/common-schemas.js';
import { objectSchema } from '../validation/workspace-args.js';

const runnerOptions = lazySchema((z: Zod) => z.object({ workspace: absolutePathSchema(z), policy: objectSchema(z).optional(), ports: objectSchema(z).optional() }, { error: 'must be an object' }).loose());

/** Checks {@link ShadowRunner}'s options (`workspace` absolute). */
export function checkShadowRunnerOptions(opts: ShadowRunnerOptions): ShadowRunnerOptions {
  parseArgument(runnerOptions, 'opts', opts);
  return opts;
}

/**
 * Options of {@link ShadowRunner}.
 * @public
 */
export interface ShadowRunnerOptions {
  /** The workspace whose `.mam/loop/` store receives the decisions. */
  workspace: string;
  /** The policy to run; default a new {@link ShadowPolicy}. */
  policy?: ShadowPolicy;
  /** Ports to use instead of the real ones; the store uses only `fs` and `clock` (defaults: Node's). */
  ports?: Partial<Ports>;
}

function jobIdOf(s: PolicyScenario): string | null {
  for (const block of [objectOrUndefined(s.job), objectOrUndefined(s.dispatch_context)]) {
    const id = block?.['job_id'];
    if (typeof id === 'string' && id !== '') return id;
  }
  return null;
}

/**
 * Runs the policy in shadow mode: decides, logs each decision to the dispatch store, and reports what it would have done — it holds no route to a job record.
 * @example
 * ```ts
 * const entry = await new ShadowRunner({ workspace: '/w' }).evaluate(scenario);
 * if (entry.would_complete) notify(entry.job_id);
 * ```
 * @public
 */
export class ShadowRunner {
  readonly #policy: ShadowPolicy;
  readonly #where: { workspace: string; ports: Partial<Ports> | undefined };
  #store: DispatchStore | undefined;

  /** A runner logging to `<workspace>/.mam/loop/`; nothing is written until {@link ShadowRunner.evaluate}. */
  constructor(opts: ShadowRunnerOptions) {
    checkShadowRunnerOptions(opts);
    this.#policy = opts.policy ?? new ShadowPolicy();
    this.#where = { workspace: opts.workspace, ports: opts.ports };
  }

  /** Decides one scenario and logs the decision under its job (nothing is logged for a scenario that names no valid job id). */
  async evaluate(s: PolicyScenario): Promise<ShadowEntry> {
    const { decision, reason } = this.#policy.decide(s);
    const jobId = jobIdOf(s);
    const scenarioId = typeof s.scenario_id === 'string' ? s.scenario_id : null;
    const entry: ShadowEntry = { job_id: jobId, scenario_id: scenarioId, decision, reason, would_complete: decision === 'candidate_approved', shadow: true };
    if (jobId !== null && isValidJobId(jobId)) await (await this.#storeOf()).logDecision({ ...entry, job_id: jobId });
    return entry;
  }

  // The dispatch store is loaded and made on the first decision it logs, so importing @mam/core does not load it.
  async #storeOf(): Promise<DispatchStore> {
    if (this.#store === undefined) {
      const { DispatchStore } = await import('./dispatch-store.js');
      const { workspace, ports } = this.#where;
      this.#store ??= new DispatchStore(workspace, ports === undefined ? {} : { ports });
    }
    return this.#store;
  }

  /** Evaluates scenarios one after another, in order. */
  async evaluateAll(s: readonly PolicyScenario[]): Promise<ShadowEntry[]> {
    const out: ShadowEntry[] = [];
    for (const scenario of s) out.push(await this.evaluate(scenario));
    return out;
  }
}

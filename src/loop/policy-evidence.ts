/**
 * A scenario read defensively: each block an object or undefined, so a missing or malformed block is simply absent.
 * @public
 */
export interface PolicyEvidence {
  /** The `job` block: the job record as the loop sees it. */
  job: Readonly<Record<string, unknown>> | undefined;
  /** The `dispatch_context` block: what the dispatch store recorded. */
  ctx: Readonly<Record<string, unknown>> | undefined;
  /** The `observation` block: what the watcher saw. */
  observation: Readonly<Record<string, unknown>> | undefined;
  /** `observation.agent`: herdr's agent snapshot. */
  agent: Readonly<Record<string, unknown>> | undefined;
  /** The `quiescence` block: how long the agent has been idle, and how long it must be. */
  quiescence: Readonly<Record<string, unknown>> | undefined;
  /** The `filesystem` block: the report file and manifest evidence. */
  filesystem: Readonly<Record<string, unknown>> | undefined;
  /** The `limits` block: bounds such as the oldest usable snapshot. */
  limits: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The value when it is a plain JSON object, else undefined.
 * @public
 */
export function objectOrUndefined(v: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/**
 * The value when it is a finite, non-negative number (a duration or an age), else undefined.
 * @public
 */
export function durationOrUndefined(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined;
}

/**
 * Splits any value into the blocks the policy reads; never throws, never reads anything but the value.
 * @public
 */
export function readPolicyEvidence(scenario: unknown): PolicyEvidence {
  const s = objectOrUndefined(scenario) ?? {};
  const observation = objectOrUndefined(s['observation']);
  return {
    job: objectOrUndefined(s['job']),
    ctx: objectOrUndefined(s['dispatch_context']),
    observation,
    agent: objectOrUndefined(observation?.['agent']),
    quiescence: objectOrUndefined(s['quiescence']),
    filesystem: objectOrUndefined(s['filesystem']),
    limits: objectOrUndefined(s['limits']),
  };
}

/**
 * A scenario read defensively: each block an object or undefined, so a missing or malformed block is simply absent.
 * @public
 */
export interface PolicyEvidence {
  job: Readonly<Record<string, unknown>> | undefined;
  ctx: Readonly<Record<string, unknown>> | undefined;
  observation: Readonly<Record<string, unknown>> | undefined;
  agent: Readonly<Record<string, unknown>> | undefined;
  quiescence: Readonly<Record<string, unknown>> | undefined;
  filesystem: Readonly<Record<string, unknown>> | undefined;
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

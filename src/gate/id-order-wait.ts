/**
 * The gate's wait bound when `MAM_ID_ORDER_WAIT_S` is not set.
 * @public
 */
export const DEFAULT_ID_ORDER_WAIT_S = 60;

/** A longer wait is taken as this (an hour), so a typo cannot park a create for days. */
const MAX_WAIT_S = 3600;

/**
 * How long the gate waits, and where the number came from (`invalid`: the variable was set to something that is not a
 * non-negative number of seconds, and the default was used).
 * @public
 */
export interface IdOrderWait {
  /** The bound in seconds (fractions allowed; an env value over an hour is taken as 3600). */
  seconds: number;
  /**
   * Where it came from: the variable, the default, the default because the variable was invalid, or the gate's option.
   */
  source: 'env' | 'default' | 'invalid' | 'option';
  /** The variable's text, when it was set. */
  raw?: string;
}

/**
 * Reads `MAM_ID_ORDER_WAIT_S` from an environment (the ProcessPort's, never the Node process's own): seconds, fractions allowed,
 * `0` meaning one look that asks herdr nothing.
 * @public
 */
export function idOrderWaitFromEnv(env: Readonly<Record<string, string | undefined>>): IdOrderWait {
  const raw = env['MAM_ID_ORDER_WAIT_S'];
  if (raw === undefined || raw.trim() === '') return { seconds: DEFAULT_ID_ORDER_WAIT_S, source: 'default' };
  const text = raw.trim();
  const n = /^[0-9]+(\.[0-9]+)?$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(n)) return { seconds: DEFAULT_ID_ORDER_WAIT_S, source: 'invalid', raw };
  return { seconds: Math.min(n, MAX_WAIT_S), source: 'env', raw };
}

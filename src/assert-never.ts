/**
 * Exhaustiveness guard for a `switch` over a closed union: unreachable when every member is handled.
 * @public
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}

import { InvalidArgumentError } from './invalid-argument-error.js';

// The package's one rule for a call given an `AbortSignal`, as `Clock.sleep`, `acquireLock` and the id-order gate already
// behave: the signal is looked at between steps, and an aborted one rejects the call with `signal.reason` (a DOMException
// `AbortError` unless the caller gave `abort(reason)` its own). A step that writes runs to its end once begun.

/** True for an AbortSignal of any realm, by the field the package reads (`aborted`), without `instanceof`. */
export function isAbortSignal(v: unknown): v is AbortSignal {
  return typeof v === 'object' && v !== null && typeof (v as { aborted?: unknown }).aborted === 'boolean';
}

/** Throws the signal's reason when it has aborted; runs between the steps of a long call. */
export function stopIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason;
}

/** Checks `{ signal? }` options: an object whose `signal`, when given, is an AbortSignal; throws {@link InvalidArgumentError}. */
export function checkSignalOption(opts: unknown, root = 'opts'): AbortSignal | undefined {
  if (typeof opts !== 'object' || opts === null) throw new InvalidArgumentError(root, 'must be an object ({ signal? })');
  const signal = (opts as { signal?: unknown }).signal;
  if (signal !== undefined && !isAbortSignal(signal)) throw new InvalidArgumentError(`${root}.signal`, 'must be an AbortSignal');
  return signal;
}

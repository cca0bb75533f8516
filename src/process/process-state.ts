import type { ProcessState } from '../ports/process.js';

const BY_LETTER: Readonly<Record<string, ProcessState>> = {
  R: 'running',
  S: 'sleeping',
  D: 'sleeping',
  I: 'sleeping',
  U: 'sleeping',
  W: 'sleeping',
  P: 'sleeping',
  K: 'sleeping',
  T: 'stopped',
  t: 'stopped',
  Z: 'zombie',
  X: 'dead',
  x: 'dead',
};

/**
 * The {@link ProcessState} of a kernel state code: `/proc/<pid>/stat` field 3, or `ps -o stat=` (only its first letter
 * counts: `Ss+`, `S<Ll`, `Z`); undefined for a code it does not know.
 * @example
 * ```ts
 * processStateOf('Z');    // 'zombie'
 * processStateOf('Ss+');  // 'sleeping'
 * ```
 * @public
 */
export function processStateOf(code: string): ProcessState | undefined {
  const letter = code.trim()[0];
  return letter === undefined ? undefined : BY_LETTER[letter];
}

export { isLiveProcess } from '../ports/process-live.js';

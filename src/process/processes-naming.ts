import type { ProcessInfo } from '../ports/process.js';

/**
 * The processes, outside `exclude`, whose command line contains any of `needles` (e.g. both spellings of a conversation id); empty needles match nothing.
 * @public
 */
export function processesNaming(snapshot: readonly ProcessInfo[], needles: readonly string[], exclude: ReadonlySet<number> = new Set()): ProcessInfo[] {
  const wanted = needles.filter((n) => n !== '');
  if (wanted.length === 0) return [];
  return snapshot.filter((p) => !exclude.has(p.pid) && wanted.some((n) => p.command.includes(n) || (p.argv?.some((a) => a.includes(n)) ?? false)));
}

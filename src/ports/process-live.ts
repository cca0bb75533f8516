import type { ProcessInfo } from './process.js';

/**
 * Whether a process of the table is live: present, and neither a zombie (exited, waiting for a parent that does not reap
 * it) nor dead. A process whose state is unknown counts as live (the careful answer for a purge's in-use gate).
 * @example
 * ```ts
 * const p = await ports.proc.lookup(pid);
 * const gone = !isLiveProcess(p); // a zombie is gone too
 * ```
 * @public
 */
export function isLiveProcess(p: Pick<ProcessInfo, 'state'> | null | undefined): boolean {
  return p !== null && p !== undefined && p.state !== 'zombie' && p.state !== 'dead';
}

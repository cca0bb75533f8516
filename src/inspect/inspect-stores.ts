// The public `inspectStores`: its body (inspect-stores-impl.ts: every agent's store survey) is loaded on the first call,
// so importing @mam/core does not load it.
import type { StoreReport } from '../agents/types.js';
import type { InspectStoresOptions } from './inspect-stores-impl.js';

export type { InspectStoresOptions } from './inspect-stores-impl.js';

/**
 * Per agent (the built-ins, then `opts.agents` in their order), what its store looks like before anything destructive runs: is it there, which layout or version it records,
 * known or unknown (an unknown one makes purges refuse), counts, and problems — the fail-closed decision made visible.
 * Cheap and read-only: databases are read through the read-only opener (no sidecar is created or removed), no agent CLI
 * is run. An agent without a store inspection is `not-inspected`. Problems that name a cause are typed in `faults`
 * (an unreadable store, a read-only disk, a missing better-sqlite3 binding with how to fix the install). Never rejects on a bad store; options it cannot take
 * (a relative or missing home, wrong types) throw {@link InvalidArgumentError} naming the option.
 * @example
 * ```ts
 * const reports = await inspectStores({ home: '/home/me' });
 * const text = formatStoreReport(reports); // what `mam doctor` prints
 * ```
 * @public
 */
export async function inspectStores(opts: InspectStoresOptions): Promise<StoreReport[]> {
  return (await import('./inspect-stores-impl.js')).inspectStores(opts);
}

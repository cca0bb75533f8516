import type { Ports } from '../../ports/index.js';
import type { StorePurgeOutcome } from './agent-store.js';

// The last purge outcome of each (agent, canonical id) on one set of ports, until the next purge of that id: what lets
// `residualArtifacts` after `purgeArtifacts` name a swap or a failed row delete. `purge` returns the same in its report.
const records = new WeakMap<Ports, Map<string, StorePurgeOutcome>>();

/** Records the outcome of a purge of `id` (replacing the previous one; an outcome that left nothing to say clears it). */
export function notePurge(ports: Ports, agent: string, id: string, outcome: StorePurgeOutcome): void {
  let byId = records.get(ports);
  if (byId === undefined) records.set(ports, (byId = new Map()));
  const key = `${agent}\0${id}`;
  if ((outcome.swapped?.length ?? 0) + (outcome.rowFailures?.length ?? 0) === 0) byId.delete(key);
  else byId.set(key, { removed: [], swapped: outcome.swapped ?? [], rowFailures: outcome.rowFailures ?? [] });
}

/** The recorded outcome of the last purge of `id` on these ports, if it left anything to say. */
export function lastPurgeOf(ports: Ports, agent: string, id: string): StorePurgeOutcome | undefined {
  return records.get(ports)?.get(`${agent}\0${id}`);
}

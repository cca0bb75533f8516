import type { ProcessInfo } from '../ports/process.js';
import { agentCliName } from './agent-cli-name.js';

/**
 * The caller's helper chain and the agent session it runs in.
 * @public
 */
export interface HelperChain {
  /** The caller's pid first, then its ancestors up to, not including, the nearest agent CLI ancestor. */
  chain: number[];
  /** The nearest ancestor that is an agent CLI (the session the caller runs in), or null. */
  agentAncestor: ProcessInfo | null;
}

/**
 * Walks from `selfPid` up the parent links of a snapshot, stopping below the nearest agent CLI ancestor, at pid 1, at a pid the snapshot lacks, or on a cycle.
 * @public
 */
export function helperChain(snapshot: readonly ProcessInfo[], selfPid: number): HelperChain {
  const byPid = new Map(snapshot.map((p) => [p.pid, p] as const));
  const chain = [selfPid];
  const seen = new Set(chain);
  let ppid = byPid.get(selfPid)?.ppid ?? 0;
  // pid 1 is walked too (it may be an agent CLI in a container), but nothing above it.
  while (ppid > 0 && !seen.has(ppid) && (chain[chain.length - 1] as number) !== 1) {
    const parent = byPid.get(ppid);
    if (parent === undefined) break;
    if (agentCliName(parent) !== null) return { chain, agentAncestor: parent };
    chain.push(ppid);
    seen.add(ppid);
    ppid = parent.ppid;
  }
  return { chain, agentAncestor: null };
}

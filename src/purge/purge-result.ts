import type { AgentName } from '../ids/agent-names.js';
import type { Artifact, LeftArtifact } from './artifact.js';

/**
 * The outcome of purging one conversation.
 * - `purged`: what was removed, what stays of its own artifacts (`residual`, each with its reason), shared files and rows
 *   still naming it (`mentions`), and what a person should know that is no artifact (`notes`);
 * - `in-use`: a live process uses it — nothing was removed;
 * - `unresolved`: no adapter has any artifact of the id.
 * @public
 */
export type PurgeResult =
  | { kind: 'purged'; agent: AgentName; purged: Artifact[]; residual: LeftArtifact[]; mentions: Artifact[]; notes: string[]; inUse: false }
  | { kind: 'in-use'; agent: AgentName; holders: { pid: number; command: string }[]; hints: string[]; inUse: true }
  | { kind: 'unresolved'; agent: null };

/**
 * The exit code the example CLI (and the reference tool) gives a purge result: 0 purged, 4 in use, 5 unresolved.
 * @public
 */
export function purgeExitCode(result: PurgeResult): 0 | 4 | 5 {
  switch (result.kind) {
    case 'purged':
      return 0;
    case 'in-use':
      return 4;
    case 'unresolved':
      return 5;
  }
}

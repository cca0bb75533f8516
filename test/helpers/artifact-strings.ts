// The records adapters and PurgeService return, rendered in the reference system's string form so tests written against
// those strings keep their meaning (a left artifact's reason follows in parentheses, as the reference printed it).
import { type Artifact, formatArtifact } from '../../src/purge/artifact.js';

/** The reference string form of each artifact, with reasons. */
export function strs(xs: readonly Artifact[]): string[] {
  return xs.map((a) => formatArtifact(a, { reason: true }));
}

/** The path (or database) of each artifact. */
export function pathsOf(xs: readonly Artifact[]): string[] {
  return xs.map((a) => (a.kind === 'rows' ? a.db : a.path));
}

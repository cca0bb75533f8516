// Accounts for every byte-level hit of a purged id: each file that still holds it must be named by the result as a
// residual or a mention (a database names its -wal and -shm too); a hit in a file the result says it removed is a lie.
import { formatArtifact } from '../../../src/index.js';

type AnyArtifact = string | Parameters<typeof formatArtifact>[0];

/** The path an artifact (string or record form) names: the file/dir, or the database of a rows artifact. */
export function artifactPathOf(a: AnyArtifact): string {
  if (typeof a !== 'string') return a.kind === 'rows' ? a.db : a.path;
  const cut = a.indexOf(' (');
  return cut < 0 ? a : a.slice(0, cut);
}

export function asText(a: AnyArtifact): string {
  return typeof a === 'string' ? a : formatArtifact(a);
}

const names = (artifactPath: string, hit: string): boolean =>
  hit === artifactPath || hit.startsWith(`${artifactPath}/`) || hit === `${artifactPath}-wal` || hit === `${artifactPath}-shm` || hit === `${artifactPath}-journal`;

export interface Accounting {
  residual: string[];
  mention: string[];
  claimedRemoved: string[];
  unaccounted: string[];
}

export function accountHits(hits: readonly string[], result: { purged: readonly AnyArtifact[]; residual: readonly AnyArtifact[]; mentions: readonly AnyArtifact[] }): Accounting {
  const out: Accounting = { residual: [], mention: [], claimedRemoved: [], unaccounted: [] };
  const residual = result.residual.map(artifactPathOf);
  const mentions = result.mentions.map(artifactPathOf);
  const purged = result.purged.filter((a) => !asText(a).includes(' rows)')).map(artifactPathOf);
  for (const hit of hits) {
    if (residual.some((r) => names(r, hit))) out.residual.push(hit);
    else if (mentions.some((m) => names(m, hit))) out.mention.push(hit);
    else if (purged.some((p) => names(p, hit))) out.claimedRemoved.push(hit);
    else out.unaccounted.push(hit);
  }
  return out;
}

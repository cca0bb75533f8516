/**
 * One artifact of a conversation: a path on disk (`file`, `dir`, or a `link` that is never followed), or the database
 * rows of one table naming it.
 * @public
 */
export type Artifact =
  | { kind: 'file' | 'dir' | 'link'; path: string }
  | { kind: 'rows'; db: string; table: string; column: string; count: number };

/**
 * An artifact that stays, or that a plan refuses to touch, with the reason a person reads.
 * @public
 */
export type LeftArtifact = Artifact & { reason: string };

/**
 * The reference system's string form of an artifact: the path, or `<db> (<table>.<col>: N rows)`; a left artifact's
 * reason follows in square brackets when asked for.
 * @public
 */
export function formatArtifact(a: Artifact | LeftArtifact, opts: { reason?: boolean } = {}): string {
  const base = a.kind === 'rows' ? `${a.db} (${a.table}.${a.column}: ${a.count} rows)` : a.path;
  return opts.reason === true && 'reason' in a && a.reason !== '' ? `${base} [${a.reason}]` : base;
}

/**
 * The path an artifact lives at (the database file for rows).
 * @public
 */
export function artifactPath(a: Artifact): string {
  return a.kind === 'rows' ? a.db : a.path;
}

import { checkArtifactPath } from '../validation/low-level-args.js';
/**
 * One artifact of a conversation: a path on disk (`file`, `dir`, or a `link` that is never followed), or the database
 * rows of one table naming it (`child`: the sub-agent session they belong to, when not the conversation itself).
 * @public
 */
export type Artifact =
  | { kind: 'file' | 'dir' | 'link'; path: string }
  | { kind: 'rows'; db: string; table: string; column: string; count: number; child?: string };

/**
 * An artifact that is a path on disk.
 * @public
 */
export type PathArtifact = Extract<Artifact, { kind: 'file' | 'dir' | 'link' }>;

/**
 * An artifact that is the rows of one table naming the conversation.
 * @public
 */
export type RowsArtifact = Extract<Artifact, { kind: 'rows' }>;

/**
 * An artifact that stays, or that a plan refuses to touch, with the reason a person reads.
 * @public
 */
export type LeftArtifact = Artifact & { reason: string };

/**
 * The reason a left artifact gives when it is simply still there after a purge (rendered as the bare path, as the
 * reference system did).
 * @public
 */
export const STILL_ON_DISK = 'still on disk';

/**
 * The reference system's string form of an artifact: the path, or `<db> (<table>.<col>: N rows)` (a child session's rows
 * end `[child <id>]`); with `reason`, a left artifact's reason follows in parentheses
 * (`<db> (unknown layout: refusing to purge)`), except {@link STILL_ON_DISK}, which the reference form never spelled out.
 * @public
 */
export function formatArtifact(a: Artifact | LeftArtifact, opts: { reason?: boolean } = {}): string {
  const base = a.kind === 'rows' ? `${a.db} (${a.table}.${a.column}: ${a.count} rows)${a.child === undefined ? '' : ` [child ${a.child}]`}` : a.path;
  const reason = 'reason' in a ? a.reason : '';
  return opts.reason === true && reason !== '' && reason !== STILL_ON_DISK ? `${base} (${reason})` : base;
}

/**
 * The path an artifact lives at (the database file for rows).
 * @public
 */
export function artifactPath(a: Artifact): string {
  checkArtifactPath([a]);
  return a.kind === 'rows' ? a.db : a.path;
}

/**
 * The same artifact with a reason.
 * @public
 */
export function leftArtifact(a: Artifact, reason: string): LeftArtifact {
  return { ...a, reason };
}

/**
 * True when two artifacts name the same thing (same kind and path, or same db, table, column and child; counts may differ).
 * @public
 */
export function sameArtifact(a: Artifact, b: Artifact): boolean {
  if (a.kind === 'rows' || b.kind === 'rows') {
    return a.kind === 'rows' && b.kind === 'rows' && a.db === b.db && a.table === b.table && a.column === b.column && a.child === b.child;
  }
  return a.kind === b.kind && a.path === b.path;
}

/**
 * The artifact as left: unchanged when it carries a reason already (a problem found while looking), else with
 * {@link STILL_ON_DISK}.
 * @public
 */
export function asLeft(a: Artifact | LeftArtifact): LeftArtifact {
  return 'reason' in a && typeof a.reason === 'string' ? a : { ...a, reason: STILL_ON_DISK };
}

/**
 * True when the artifact carries a reason: a problem found while looking (unreadable, unknown layout), not a plain artifact.
 * @public
 */
export function hasReason(a: Artifact | LeftArtifact): a is LeftArtifact {
  return 'reason' in a && typeof a.reason === 'string';
}

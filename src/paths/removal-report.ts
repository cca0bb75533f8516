// What a confined removal reports (its own file, so the removal's helpers can name it without importing the removal).

/**
 * A path a removal left, and why (see `REMOVAL_REASONS` for the refusals; a failure gives its error's message).
 * @public
 */
export interface RemovalLeft {
  /** The path that stays. */
  path: string;
  /** Why it stays, in words a person reads. */
  reason: string;
}

/**
 * What a confined removal did: the paths it removed, and the paths that should have gone but stay (a failure, a refusal,
 * an unreadable entry, a directory swapped while it ran), each again in `left` with its reason.
 * @public
 */
export interface RemovalReport {
  /** Paths removed, in removal order. */
  removed: string[];
  /** Paths that should have gone but are still there. */
  residual: string[];
  /** The residual paths in the same order, each with why it stays. */
  left: RemovalLeft[];
}

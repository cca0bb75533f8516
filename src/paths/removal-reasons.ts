/**
 * Why a confined removal left a path, in the words a person reads (the `reason` of a residual entry).
 * @public
 */
export const REMOVAL_REASONS = {
  /** A directory on the way or being removed was replaced (by a link or another directory) while the removal ran. */
  swapped: 'a directory was swapped during removal',
  /** A component between the root and the path is a symbolic link, never followed. */
  behindLink: 'a link on the way is never followed',
  /** The path is the root itself, or not below it. */
  outside: 'not below its root',
  /** Something inside the directory stays, so the directory does too. */
  insideStays: 'something inside stays',
} as const;

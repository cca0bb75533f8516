import { basename } from 'node:path';

const ROLLOUT = /^rollout-.+-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl$/;

/**
 * The (lower-cased) conversation id a rollout file name `rollout-<timestamp>-<id>.jsonl` carries, or null for any other name.
 * @public
 */
export function rolloutNameId(path: string): string | null {
  const m = ROLLOUT.exec(basename(path));
  return m?.[1]?.toLowerCase() ?? null;
}

/**
 * The `LIKE` pattern matching a stored rollout path whose file name ends with the canonical id (`…-<id>.jsonl`; a uuid
 * holds no `LIKE` wildcard, and `LIKE` ignores ASCII case).
 * @public
 */
export function rolloutPathPattern(id: string): string {
  return `%-${id}.jsonl`;
}

/**
 * One canonical id of a batch `verifyMany` and the workspace it is checked against.
 * @public
 */
export interface BatchVerifyQuery {
  /** The canonical id. */
  id: string;
  /** The workspace of the query (absolute). */
  workspace: string;
}

/**
 * A promise per key, made once for one batch: every query of the batch that needs the same key shares it (a failure is
 * that key's answer for the whole batch, and is never left unhandled).
 */
export function batchMemo<T>(make: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let p = seen.get(key);
    if (p === undefined) {
      p = make(key);
      p.catch(() => undefined);
      seen.set(key, p);
    }
    return p;
  };
}

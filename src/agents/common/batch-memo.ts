import type { VerifyQuery } from '../types.js';

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
  return memoIn(new Map<string, Promise<T>>(), make);
}

/** As {@link batchMemo}, keyed by an object for as long as it lives (a survey: what is derived from it is made once). */
export function objectMemo<K extends object, T>(make: (key: K) => Promise<T>): (key: K) => Promise<T> {
  return memoIn(new WeakMap<K, Promise<T>>(), make);
}

function memoIn<K, T>(seen: { get(key: K): Promise<T> | undefined; set(key: K, value: Promise<T>): unknown }, make: (key: K) => Promise<T>): (key: K) => Promise<T> {
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

/**
 * Every query of a batch answered, each (workspace, id) pair once: the first query of a pair answers for its repeats.
 */
export function answerEachPairOnce<Q extends BatchVerifyQuery, T>(queries: readonly Q[], answer: (q: Q) => Promise<T>): Promise<T[]> {
  const answers = new Map<string, Promise<T>>();
  return Promise.all(
    queries.map((q) => {
      const k = `${q.workspace}\0${q.id}`;
      let a = answers.get(k);
      if (a === undefined) answers.set(k, (a = answer(q)));
      return a;
    }),
  );
}

/**
 * A `verifyMany` answer from a batch rule: each query's id made canonical (an id that is none answers false and reaches
 * no path), its workspace the context's when it names none; `run` answers the canonical batch, in order (not called
 * for an empty one). A fault of `run` is passed on.
 */
export async function verifyCanonical(
  queries: readonly VerifyQuery[],
  workspace: string,
  canonical: (id: string) => string | null,
  run: (batch: BatchVerifyQuery[]) => Promise<readonly boolean[]>,
): Promise<boolean[]> {
  const out = queries.map(() => false);
  const batch: BatchVerifyQuery[] = [];
  const at: number[] = [];
  queries.forEach((q, i) => {
    const c = canonical(q.id);
    if (c !== null) batch.push({ id: c, workspace: q.workspace ?? workspace }), at.push(i);
  });
  if (batch.length === 0) return out;
  const answers = await run(batch);
  at.forEach((i, k) => (out[i] = answers[k] === true));
  return out;
}

/**
 * Calls with the same key (`keyOf` of their arguments) while one is running share that run; a call after it has settled
 * runs again (a fresh read every time, but the parts of one plan asked at once read once).
 */
export function shareWhileRunning<A extends unknown[], T>(keyOf: (...args: A) => string, make: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  const running = new Map<string, Promise<T>>();
  return (...args) => {
    const key = keyOf(...args);
    let p = running.get(key);
    if (p === undefined) {
      p = make(...args).finally(() => running.delete(key));
      p.catch(() => undefined);
      running.set(key, p);
    }
    return p;
  };
}

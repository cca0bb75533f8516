/**
 * Maps `items` through `fn` with at most `limit` calls in flight, keeping the input order in the result (bounds memory
 * and open file descriptors when each call reads a file).
 * @public
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  // No more items than calls allowed at once: every call starts now, as Promise.all of them would.
  if (items.length <= limit) return Promise.all(items.map((item) => fn(item)));
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next;
      next += 1;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

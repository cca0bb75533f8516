// Updates of one registry from the same process wait for each other here, in call order, instead of polling the
// cross-process lock (whose backoff would leave it idle between them). Other processes still meet at the lock.
const tails = new Map<string, Promise<void>>();

/**
 * Waits until every earlier caller with the same key has called its `done`, then resolves with this caller's `done`.
 * @public
 */
export async function inProcessTurn(key: string): Promise<() => void> {
  const prev = tails.get(key) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => {
    done = resolve;
  });
  const tail = prev.then(() => mine);
  tails.set(key, tail);
  await prev;
  return () => {
    done();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { FileSystemPort } from '../ports/fs.js';

// The databases found busy (another process holds the lock a read needs) in the current memo, by port and path.
const current = new AsyncLocalStorage<WeakMap<FileSystemPort, Map<string, Error>>>();

/**
 * Runs `fn` remembering every database an open finds busy: a later open of the same path inside it fails at once with
 * the same error instead of waiting SQLite's busy timeout again. A plan reads one store many times (its rows, its
 * refusals, the workspace check, what is left, the inspection); a store locked for the whole plan then costs one wait,
 * not one per read. Nothing else is remembered (a read that works opens as it always does); a nested call is the outer one.
 */
export function withBusyMemo<T>(fn: () => Promise<T>): Promise<T> {
  if (current.getStore() !== undefined) return fn();
  return current.run(new WeakMap(), fn);
}

/** The busy failure an earlier open of `dbPath` on `fs` met in the current memo, or undefined. */
export function knownBusy(fs: FileSystemPort, dbPath: string): Error | undefined {
  return current.getStore()?.get(fs)?.get(dbPath);
}

/** Remembers, in the current memo (if any), that opening `dbPath` on `fs` failed as busy with `err`. */
export function noteBusy(fs: FileSystemPort, dbPath: string, err: Error): void {
  const memo = current.getStore();
  if (memo === undefined) return;
  let byPath = memo.get(fs);
  if (byPath === undefined) memo.set(fs, (byPath = new Map()));
  byPath.set(dbPath, err);
}

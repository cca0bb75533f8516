import { AsyncLocalStorage } from 'node:async_hooks';
import type { FileSystemPort } from '../ports/fs.js';
import type { ReadonlyDb } from './readonly-handle.js';

/**
 * What a read scope did: the path of every database it opened, once per open.
 * @public
 */
export interface ReadScopeStats {
  /** Each database path opened in the scope, in order (a path opened once appears once). */
  opens: string[];
}

interface Scope {
  handles: Map<FileSystemPort, Map<string, Promise<ReadonlyDb>>>;
  stats: ReadScopeStats;
}

const current = new AsyncLocalStorage<Scope>();

/**
 * Runs `fn` in a read scope: every `withReadonlyDb` of one database path (on one FileSystemPort) inside it shares one
 * read-only connection, opened at the first use and closed when `fn` settles, so a batch of reads (a status of many rows)
 * opens each store once. The answers are those of the stores as first opened: never run a write inside a scope.
 * @example
 * ```ts
 * const stats = { opens: [] };
 * const states = await withReadScope(() => Promise.all(ids.map((id) => adapter.verifyArtifact(id, ctx))), stats);
 * ```
 * @public
 */
export async function withReadScope<T>(fn: () => Promise<T>, stats: ReadScopeStats = { opens: [] }): Promise<T> {
  const outer = current.getStore();
  // A nested scope is the outer one: its connections already live until the outer scope ends.
  if (outer !== undefined) return fn();
  const scope: Scope = { handles: new Map(), stats };
  try {
    return await current.run(scope, fn);
  } finally {
    for (const byPath of scope.handles.values()) {
      for (const h of byPath.values()) await h.then((d) => d.close(), () => undefined);
    }
  }
}

/**
 * The shared connection of `dbPath` in the current read scope (opened with `open` at its first use; a failed open is the
 * answer for the rest of the scope), or null outside any scope.
 */
export function scopedHandle(fs: FileSystemPort, dbPath: string, open: () => Promise<ReadonlyDb>): Promise<ReadonlyDb> | null {
  const scope = current.getStore();
  if (scope === undefined) return null;
  let byPath = scope.handles.get(fs);
  if (byPath === undefined) {
    byPath = new Map();
    scope.handles.set(fs, byPath);
  }
  let h = byPath.get(dbPath);
  if (h === undefined) {
    scope.stats.opens.push(dbPath);
    h = open();
    h.catch(() => undefined);
    byPath.set(dbPath, h);
  }
  return h;
}

/**
 * Whether a read scope is current: inside one a failed open is the answer for the rest of the scope and is listed in its
 * `opens`, so a reader that may ask for a store that is not there looks first.
 */
export function inReadScope(): boolean {
  return current.getStore() !== undefined;
}

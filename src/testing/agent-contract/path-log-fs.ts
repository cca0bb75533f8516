import type { FileSystemPort } from '../../ports/index.js';

/** A filesystem port that notes every call naming a path (reads included), and the port it wraps. */
export interface PathLog {
  /** The wrapping port. */
  fs: FileSystemPort;
  /** `method path…` of every call made through it, in order (handles opened by it are not followed further). */
  calls: string[];
}

/** Wraps `inner` so every call that names a path is noted before it runs (only `tmpdir()` names none). */
export function pathLogFs(inner: FileSystemPort): PathLog {
  const calls: string[] = [];
  const fs = new Proxy(inner, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || key === 'tmpdir') return value;
      return (...args: unknown[]): unknown => {
        calls.push([String(key), ...args.filter((a): a is string => typeof a === 'string').map((a) => JSON.stringify(a))].join(' '));
        return Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
      };
    },
  });
  return { fs, calls };
}

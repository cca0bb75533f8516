import type { FileSystemPort } from '../ports/fs.js';

// Port calls whose failure says nothing of a fault (a lookup that finds nothing is an answer).
const QUIET = new Set(['tmpdir']);

function wrap<T extends object>(inner: T, note: (err: unknown, path: string | null) => void, base: string | null): T {
  return new Proxy(inner, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || QUIET.has(prop)) return value;
      return (...args: unknown[]): unknown => {
        const path = typeof args[0] === 'string' ? (base === null ? args[0] : `${base}/${args[0]}`) : base;
        let out: unknown;
        try {
          out = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (err) {
          note(err, path);
          throw err;
        }
        if (!(out instanceof Promise)) return out;
        return out.then(
          // A directory handle opened here is watched too: fd-anchored removals unlink through it.
          (v: unknown) => (prop === 'openDir' && typeof v === 'object' && v !== null ? wrap(v, note, path) : v),
          (err: unknown) => {
            note(err, path);
            throw err;
          },
        );
      };
    },
  });
}

/**
 * The port with every failed call told to `note` (the error and the path it named) before it is rethrown: a purge
 * learns the cause (EROFS, ENOSPC, EIO) of what its removals left, which the adapters' residual does not carry.
 */
export function faultNotingFs(inner: FileSystemPort, note: (err: unknown, path: string | null) => void): FileSystemPort {
  return wrap(inner, note, null);
}

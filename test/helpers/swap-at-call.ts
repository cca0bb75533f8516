// The deterministic twin of the swapper process: a FileSystemPort that, right before its k-th call (port or directory
// handle, reads included), swaps one directory for a link to the victim — so a sweep over k puts the swap at every point
// between the syscalls of a purge.
import { renameSync, symlinkSync } from 'node:fs';
import type { FileSystemPort } from '../../src/ports/fs.js';

function isHandle(v: unknown): v is object {
  return typeof v === 'object' && v !== null && 'readdir' in v && 'unlink' in v && 'close' in v;
}

/** Wraps `inner`; before call number `k` (1-based) renames `dir` aside and puts a link to `victim` in its place, once. */
export function swapAtCall(inner: FileSystemPort, k: number, dir: string, victim: string): { fs: FileSystemPort; calls: () => number; swapped: () => boolean } {
  let n = 0;
  let done = false;
  const before = (): void => {
    n++;
    if (n !== k || done) return;
    done = true;
    try {
      renameSync(dir, `${dir}.swp`);
      symlinkSync(victim, dir);
    } catch {
      // The dir is already gone: nothing to swap at this point.
    }
  };
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value: unknown = Reflect.get(t, prop, receiver);
        if (typeof value !== 'function') return value;
        if (prop === 'tmpdir' || prop === 'close') return (value as (...a: unknown[]) => unknown).bind(t);
        return (...args: unknown[]) => {
          before();
          const out: unknown = (value as (...a: unknown[]) => unknown).apply(t, args);
          return out instanceof Promise ? out.then((v: unknown) => (isHandle(v) ? wrap(v) : v)) : out;
        };
      },
    });
  return { fs: wrap(inner), calls: () => n, swapped: () => done };
}

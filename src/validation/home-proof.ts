import { dirname } from 'node:path';
import type { HomeDiscoveryContext } from '../agents/types.js';
import { lstatOrNull } from '../paths/lstat-or-null.js';
import type { FileStat, FileSystemPort } from '../ports/fs.js';

// A home check a read-only method may make needless: while the method reads, a successful `lstat` of a path inside the
// home (the agent's own directory, `<home>/.codex`) proves the home a directory as a `stat` of it would (the kernel walked
// through it), and the stat is then never taken. Unproven, the stat runs when asked for or once the method has answered.
interface Deferred {
  proven: boolean;
  started: Promise<void> | undefined;
  /** The proving looks still on their way when the method answered are waited for (they never reject). */
  looks: Promise<void>[];
  run(): Promise<void>;
}

const deferred = new WeakMap<object, Deferred>();

/** Defers `ctx`'s home check (`stat`, which rejects for a bad home) until {@link homeCheckNow} or the end of the method. */
export function deferHomeCheck(ctx: HomeDiscoveryContext, stat: () => Promise<void>): Deferred {
  const d: Deferred = {
    proven: false,
    started: undefined,
    looks: [],
    run: () => (d.started ??= stat()),
  };
  deferred.set(ctx, d);
  return d;
}

/** The deferred check of `ctx`, removed: the method has answered. */
export function endDeferredHomeCheck(ctx: HomeDiscoveryContext): void {
  deferred.delete(ctx);
}

/** The stat of `ctx`'s deferred home check, started now (undefined when none is deferred): for a method that will prove nothing. */
export function homeCheckNow(ctx: HomeDiscoveryContext): Promise<void> | undefined {
  const d = deferred.get(ctx);
  if (d === undefined) return undefined;
  if (d.proven) return Promise.resolve();
  const check = d.run();
  check.catch(() => undefined);
  return check;
}

/** True when `path` lies inside `home`: the home, a slash, then a plain relative path (no `.`/`..` segment, no doubled slash). */
export function insideHome(home: string, path: string): boolean {
  if (home === '/' || !path.startsWith(`${home}/`)) return false;
  return path
    .slice(home.length + 1)
    .split('/')
    .every((seg) => seg !== '' && seg !== '.' && seg !== '..');
}

/**
 * Records that `look` (an `lstat` of `path`, null where it failed) found something inside `ctx`'s home: the home is then a
 * directory, and its deferred check needs no stat. Anything else proves nothing.
 */
export function proveHome(ctx: HomeDiscoveryContext, path: string, look: FileStat | null): void {
  const d = deferred.get(ctx);
  if (d !== undefined && look !== null && insideHome(ctx.home, path)) d.proven = true;
}

/**
 * The look at a store directory for one read of `ctx`: for a directory inside the home, its `lstat` taken now (once per
 * directory), which proves the home a directory when it finds it; for one outside, undefined, and the home's deferred
 * stat started now (that look proves nothing).
 */
export function provingLook(fs: FileSystemPort, ctx: HomeDiscoveryContext): (dir: string) => Promise<FileStat | null> | undefined {
  const looks = new Map<string, Promise<FileStat | null>>();
  return (dir) => {
    if (!insideHome(ctx.home, dir)) {
      homeCheckNow(ctx);
      return undefined;
    }
    let look = looks.get(dir);
    if (look === undefined) {
      looks.set(dir, (look = lstatOrNull(fs, dir).catch(() => null)));
      const proving = look.then((l) => proveHome(ctx, dir, l));
      deferred.get(ctx)?.looks.push(proving);
    }
    return look;
  };
}

/** {@link provingLook} of a database's directory: the opener's look (`OpenReadonlyOptions.dirLook`) for `dbPath`. */
export function provingDirLook(fs: FileSystemPort, ctx: HomeDiscoveryContext): (dbPath: string) => Promise<FileStat | null> | undefined {
  const look = provingLook(fs, ctx);
  return (dbPath) => look(dirname(dbPath));
}

import { dirname } from 'node:path';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';

/**
 * Reads the clock (epoch ms); with it, which bucket cwds resolve to themselves is remembered for the life of the
 * file-system port, without it nothing is.
 * @public
 */
export type GrokClock = () => number;

/**
 * What a parent dir's prefixes look like now: the stamp a remembered cwd under it must match, and whether it may be
 * remembered under (every existing prefix a directory, the parent settled).
 * @public
 */
export interface GrokParentStamp {
  /** Kind and identity of each prefix (root first, up to the first missing one) and the parent's mtime. */
  stamp: string;
  /** True when a plain cwd under it may be remembered. */
  plain: boolean;
}

// A directory's mtime must be this much older than the clock before a look at it is remembered (a change within the same
// timestamp tick would leave the stamp unchanged), as the Codex state cache does.
const SETTLED_MS = 3000;

// Per file-system port (a fake and the real disk never share): resolved cwd → the parent stamp under which it is plain.
const memory = new WeakMap<FileSystemPort, Map<string, string>>();

// `/a/b` → `/`, `/a`, `/a/b` (the dir and its ancestors, root first).
function chain(dir: string): string[] {
  const out = [dir];
  for (let p = dir; dirname(p) !== p; p = dirname(p)) out.unshift(dirname(p));
  return out;
}

const part = (s: FileStat | null): string => (s === null ? '-' : `${s.kind}:${s.dev}:${s.ino}`);

/**
 * Tells, for the bucket cwds of one call, which are plain — each component a real directory (no link) up to the cwd
 * itself or up to the first missing one, so the cwd's realpath is itself or it has none — from a stamp remembered for
 * the port: the kind and identity of each prefix of the cwd's parent and the parent's mtime (where a link, a removal or
 * a new entry under the cwd's name shows). A plain cwd is the workspace only when it is spelled as the workspace, so it
 * needs no `realpath`. Each parent's prefixes are looked at once per call, however many cwds share them.
 * @public
 */
export class GrokPlainCwds {
  readonly #fs: FileSystemPort;
  readonly #now: GrokClock | undefined;
  readonly #looks = new Map<string, Promise<FileStat | null>>();
  readonly #parents = new Map<string, Promise<GrokParentStamp>>();

  /** A memory for one call on `fs`; without `now` no cwd is known to be plain, and none is remembered. */
  constructor(fs: FileSystemPort, now: GrokClock | undefined) {
    this.#fs = fs;
    this.#now = now;
  }

  /** True when a clock lets cwds be remembered. */
  get enabled(): boolean {
    return this.#now !== undefined;
  }

  #look(path: string): Promise<FileStat | null> {
    let p = this.#looks.get(path);
    if (p === undefined) this.#looks.set(path, (p = lstatOrNull(this.#fs, path).catch(() => null)));
    return p;
  }

  /** The stamp of an absolute, resolved parent dir, looked at once per call (take it before the `realpath` it vouches for). */
  parent(dir: string): Promise<GrokParentStamp> {
    let p = this.#parents.get(dir);
    if (p === undefined) this.#parents.set(dir, (p = this.#stampOf(dir)));
    return p;
  }

  async #stampOf(dir: string): Promise<GrokParentStamp> {
    const stats = await Promise.all(chain(dir).map((p) => this.#look(p)));
    const parts: string[] = [];
    let plain = true;
    for (const s of stats) {
      parts.push(part(s));
      if (s === null) break;
      if (s.kind !== 'dir') plain = false;
    }
    const parent = stats.at(-1) ?? null;
    const now = this.#now?.() ?? Number.NaN;
    if (parent !== null) {
      parts.push(String(parent.mtimeMs));
      if (!Number.isFinite(now) || !Number.isFinite(parent.mtimeMs) || parent.mtimeMs > now - SETTLED_MS) plain = false;
    }
    return { stamp: parts.join('|'), plain };
  }

  /** True when the resolved cwd `path` was found plain under the stamp its parent shows now. */
  known(path: string, parent: GrokParentStamp): boolean {
    if (this.#now === undefined) return false;
    const mem = memory.get(this.#fs);
    const want = mem?.get(path);
    if (want === undefined) return false;
    if (want === parent.stamp) return true;
    mem?.delete(path);
    return false;
  }

  /**
   * Remembers the resolved cwd `path` as plain when it is: its parent's prefixes (stamped before the `realpath`) are
   * directories and settled, and `realpath` gave the cwd itself, or gave nothing while the cwd is absent (a dangling
   * link under its name is not plain).
   */
  async remember(path: string, real: string | null, parent: GrokParentStamp): Promise<void> {
    if (this.#now === undefined || !parent.plain) return;
    if (real === null ? (await lstatOrNull(this.#fs, path).catch(() => undefined)) !== null : real !== path) return;
    let mem = memory.get(this.#fs);
    if (mem === undefined) memory.set(this.#fs, (mem = new Map()));
    mem.set(path, parent.stamp);
  }
}

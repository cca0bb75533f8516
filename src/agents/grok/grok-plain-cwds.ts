import type { FileSystemPort } from '../../ports/fs.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import { factCacheOf, settled } from '../../cache/fact-cache.js';

/**
 * Reads the clock (epoch ms); with it, which bucket cwds resolve to themselves is remembered for the life of the
 * file-system port, without it nothing is.
 * @public
 */
export type GrokClock = () => number;

/**
 * What a parent dir's prefixes look like now: the stamp a remembered cwd under it must match, and whether it may be
 * remembered under (the parent a directory that is its own realpath, settled).
 * @public
 */
export interface GrokParentStamp {
  /** Whether the parent is its own realpath, and its kind, device, inode and mtime. */
  stamp: string;
  /** True when a plain cwd under it may be remembered. */
  plain: boolean;
}

// The fact cache's space of plain cwds (per file-system port): resolved cwd → remembered under its parent's stamp.
const SPACE = 'grok.plain-cwd';

/**
 * Tells, for the bucket cwds of one call, which are plain — a real directory (no link) whose parent is its own
 * realpath, or absent from such a parent, so the cwd's realpath is itself or it has none — from a stamp remembered for
 * the port: the parent is still its own realpath and its lstat (device, inode, mtime: where a link, a removal or a new
 * entry under the cwd's name shows) is unchanged. A plain cwd is the workspace only when it is spelled as the
 * workspace, so it needs no `realpath` of its own. Each parent is looked at once per call, however many cwds share it.
 * @public
 */
export class GrokPlainCwds {
  readonly #fs: FileSystemPort;
  readonly #now: GrokClock | undefined;
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

  /** The stamp of an absolute, resolved parent dir, looked at once per call (take it before the `realpath` it vouches for). */
  parent(dir: string): Promise<GrokParentStamp> {
    let p = this.#parents.get(dir);
    if (p === undefined) this.#parents.set(dir, (p = this.#stampOf(dir)));
    return p;
  }

  // The parent's realpath (itself only when no prefix is a link or missing) and its lstat (a link, a removal or a new
  // entry under a child's name shows in its mtime): one realpath and one lstat per parent, however deep it is.
  async #stampOf(dir: string): Promise<GrokParentStamp> {
    const [real, st] = await Promise.all([this.#fs.realpath(dir).catch(() => null), lstatOrNull(this.#fs, dir).catch(() => null)]);
    const now = this.#now?.() ?? Number.NaN;
    // The settle rule of every remembered look (a change within the same timestamp tick would leave the stamp unchanged).
    const plain = real === dir && st !== null && st.kind === 'dir' && settled([st], now);
    // No size in the stamp: a directory's size says nothing its mtime does not (deliberately left out).
    return { stamp: `${real === dir ? 'plain' : 'not'}|${st === null ? '-' : `${st.kind}:${st.dev}:${st.ino}:${st.mtimeMs}`}`, plain };
  }

  /** True when the resolved cwd `path` was found plain under the stamp its parent shows now. */
  known(path: string, parent: GrokParentStamp): boolean {
    if (this.#now === undefined) return false;
    return factCacheOf(this.#fs).get<true>(SPACE, path, parent.stamp) !== undefined;
  }

  /**
   * Remembers the resolved cwd `path` as plain when it is: its parent (stamped before the `realpath`) is a settled
   * directory that is its own realpath, and `realpath` gave the cwd itself, or gave nothing while the cwd is absent (a dangling
   * link under its name is not plain).
   */
  async remember(path: string, real: string | null, parent: GrokParentStamp): Promise<void> {
    if (this.#now === undefined || !parent.plain) return;
    if (real === null ? (await lstatOrNull(this.#fs, path).catch(() => undefined)) !== null : real !== path) return;
    // The parent's settle was judged with its stamp (`plain`); the entry is remembered under that stamp.
    factCacheOf(this.#fs).remember({ space: SPACE, key: path, looks: [], now: this.#now(), value: true, stamp: parent.stamp });
  }
}

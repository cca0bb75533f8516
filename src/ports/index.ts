import type { Clock } from './clock.js';
import type { FileSystemPort } from './fs.js';
import type { HerdrPort } from './herdr.js';
import type { ProcessPort } from './process.js';

export type * from './clock.js';
export type * from './fs.js';
export type * from './herdr.js';
export type * from './process.js';

/**
 * Every effect the library makes, in one object. Classes take `{ ports?: Partial<Ports> }`.
 * @public
 */
export interface Ports {
  /** The filesystem. */
  fs: FileSystemPort;
  /** The process table, open-file holders and command runner. */
  proc: ProcessPort;
  /** The herdr server(s) the agents run in. */
  herdr: HerdrPort;
  /** Wall and monotonic time, and sleeps. */
  clock: Clock;
}

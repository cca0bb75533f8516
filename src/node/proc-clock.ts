import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { parseBootTime } from './proc-parse.js';

/** AT_CLKTCK in the ELF auxiliary vector: the kernel's USER_HZ, what `getconf CLK_TCK` prints. */
const AT_CLKTCK = 17n;
const DEFAULT_CLK_TCK = 100;

let clkTckCache: Promise<number> | undefined;

/**
 * The time base of `/proc`: boot time and ticks per second, to turn a start in ticks into epoch milliseconds.
 * @public
 */
export interface ProcClock {
  bootTimeMs: number;
  clkTck: number;
}

// Read once per process from /proc/self/auxv (no spawn, unlike `getconf CLK_TCK`); 100 when unreadable.
async function readClkTck(): Promise<number> {
  try {
    const buf = await readFile('/proc/self/auxv');
    const word = process.arch.endsWith('64') ? 8 : 4;
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const little = endianness() === 'LE';
    for (let i = 0; i + 2 * word <= buf.length; i += 2 * word) {
      const type = word === 8 ? view.getBigUint64(i, little) : BigInt(view.getUint32(i, little));
      const value = word === 8 ? view.getBigUint64(i + word, little) : BigInt(view.getUint32(i + word, little));
      if (type === AT_CLKTCK && value > 0n && value < 100_000n) return Number(value);
      if (type === 0n) break;
    }
  } catch {
    // fall through to the default
  }
  return DEFAULT_CLK_TCK;
}

/**
 * Reads the boot time from `/proc/stat` and the (cached) tick rate; rejects when `/proc/stat` has no `btime`.
 * @public
 */
export async function readProcClock(): Promise<ProcClock> {
  clkTckCache ??= readClkTck();
  const [stat, clkTck] = await Promise.all([readFile('/proc/stat', 'utf8'), clkTckCache]);
  const btime = parseBootTime(stat);
  if (btime === null) throw new Error('no btime line in /proc/stat');
  return { bootTimeMs: btime * 1000, clkTck };
}

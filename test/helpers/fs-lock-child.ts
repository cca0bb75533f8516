// A child process for the lock integration tests: `node --import tsx fs-lock-child.ts <mode> ...`.
//   hold <lockPath> [releaseAfterMs]    print "waiting", acquire, print "held", then hold until killed or release after the delay
//   count <lockPath> <counterPath> <n>  n times under the lock: read the counter, add one, write it atomically
import { acquireLock, withLock, writeFileAtomic } from '../../src/atomic/index.js';
import { isPortError } from '../../src/errors.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';

const clock = new NodeClock();
const fs = new NodeFileSystem();
const [mode, lockPath = '', ...rest] = process.argv.slice(2);

async function readCounter(path: string): Promise<number> {
  try {
    return Number(await fs.readText(path));
  } catch (err) {
    if (isPortError(err, 'NotFound')) return 0;
    throw err;
  }
}

async function main(): Promise<void> {
  if (mode === 'hold') {
    process.stdout.write('waiting\n');
    const lock = await acquireLock(lockPath, { clock, timeoutMs: 20_000 });
    process.stdout.write('held\n');
    if (rest[0] === undefined) {
      setInterval(() => undefined, 60_000);
      return;
    }
    await clock.sleep(Number(rest[0]));
    lock.release();
    process.stdout.write('released\n');
    return;
  }
  if (mode === 'count') {
    const [counterPath = '', n = '0'] = rest;
    for (let i = 0; i < Number(n); i++) {
      await withLock(lockPath, { clock, timeoutMs: 20_000, pollMs: 2 }, async () => {
        const value = await readCounter(counterPath);
        await writeFileAtomic(fs, counterPath, String(value + 1));
      });
    }
    process.stdout.write('done\n');
    return;
  }
  throw new Error(`unknown mode ${String(mode)}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

// A hostile local process: swaps each directory it is given for a symlink to `victim` and back, in a tight loop, until
// SIGTERM; then puts every directory back (or leaves what a removal made of it) and exits. Usage: swap-child.mjs <victim> <dir>...
import { lstatSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';

const [victim, ...dirs] = process.argv.slice(2);
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
});

const isLink = (p) => {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
};

// Undo one swap: drop the link, move the real dir back (either may already be gone: the removal ran meanwhile).
function restore(dir) {
  if (isLink(dir)) {
    try {
      unlinkSync(dir);
    } catch {}
  }
  try {
    renameSync(`${dir}.swp`, dir);
  } catch {}
}

let swaps = 0;
const spin = (ns) => {
  const until = process.hrtime.bigint() + BigInt(Math.floor(ns));
  while (process.hrtime.bigint() < until);
};
function round() {
  // A few swaps per turn of the event loop, each of a directory picked at random (any level of the tree).
  for (let k = 0; k < 20; k++) {
    const dir = dirs[Math.floor(Math.random() * dirs.length)];
    try {
      renameSync(dir, `${dir}.swp`);
      symlinkSync(victim, dir);
      swaps++;
      // Hold the link a little: long enough for a removal to act through it.
      spin(Math.random() * 600_000);
    } catch {}
    restore(dir);
    spin(Math.random() * 400_000);
  }
  if (!announced && swaps >= 40) {
    // Ready only once it runs hot: the purge starts while swaps are under way.
    announced = true;
    process.stdout.write('ready\n');
  }
  if (stopping) {
    for (const dir of dirs) restore(dir);
    process.stdout.write(`swaps ${swaps}\n`, () => process.exit(0));
    return;
  }
  setImmediate(round);
}

let announced = false;
setImmediate(round);

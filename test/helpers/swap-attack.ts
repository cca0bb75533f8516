// Drives test/helpers/swap-child.mjs: a real concurrent process swapping directories of a conversation tree for links
// to an outside "victim" dir, and the victim's bookkeeping (what a removal that followed a link would have deleted).
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Swapper {
  /** Stops the loop; resolves once the child has put every directory back and exited, with its swap count. */
  stop(): Promise<number>;
}

const CHILD = join(import.meta.dirname, 'swap-child.mjs');

/** Starts the swapper on `dirs` (each swapped for a link to `victim` and back, in a loop); resolves once it runs. */
export function startSwapper(victim: string, dirs: readonly string[]): Promise<Swapper> {
  const child = spawn(process.execPath, [CHILD, victim, ...dirs], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out += d));
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Number(/swaps (\d+)/.exec(out)?.[1] ?? 0))));
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve({ stop: () => (child.kill('SIGTERM'), exited) }));
    child.once('error', reject);
  });
}

// Subdirs named like those of the conversation trees, so a swap of any level redirects deeper paths into the victim too.
const SUBDIRS = ['', 'sub', 'v2', join('v2', 'deep'), 'deep', 'tasks', join('tasks', 'more'), 'more', 'subagents', join('subagents', 'nested'), 'nested'];

/** Fills `victim` with files at every level of subdirs named like the conversation's, and returns their relative names. */
export function fillVictim(victim: string): string[] {
  const names: string[] = [];
  for (const [i, d] of SUBDIRS.entries()) {
    mkdirSync(join(victim, d), { recursive: true });
    for (const f of [`v${i}.jsonl`, `w${i}.txt`]) {
      writeFileSync(join(victim, d, f), `precious ${i}`);
      names.push(join(d, f));
    }
  }
  return names;
}

/** The files of `names` no longer in `victim`: what a redirected removal deleted. */
export function victimLosses(victim: string, names: readonly string[]): string[] {
  const present = new Set<string>();
  const walk = (rel: string): void => {
    for (const e of readdirSync(join(victim, rel), { withFileTypes: true })) {
      const r = rel === '' ? e.name : join(rel, e.name);
      if (e.isDirectory()) walk(r);
      else present.add(r);
    }
  };
  try {
    walk('');
  } catch {
    return [...names];
  }
  return names.filter((n) => !present.has(n));
}

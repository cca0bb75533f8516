import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tsChildArgs } from './ts-child.js';

/** Absolute path of a child script in test/helpers/. */
export function helperScript(name: string): string {
  return fileURLToPath(new URL(`./${name}`, import.meta.url));
}

/**
 * Runs a child script (`.ts` bundled or through tsx: see ts-child.ts) in a fresh Node process with `cwd`, WITHOUT `SQLITE_USE_URI` in its
 * environment, passing `arg` as JSON in `MAM_TEST_CHILD_JSON` (not on its command line: the args name conversation ids of
 * the real fixtures, and another file's in-use check of those reads the whole process table); resolves with the JSON
 * line it printed, rejects with its stderr.
 */
export function runChild<T>(script: string, arg: unknown, cwd: string): Promise<T> {
  const env: NodeJS.ProcessEnv = { ...process.env, MAM_TEST_CHILD_JSON: JSON.stringify(arg) };
  delete env['SQLITE_USE_URI'];
  const file = helperScript(script);
  const run = script.endsWith('.ts') ? tsChildArgs(file) : [file];
  const child = spawn(process.execPath, run, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`${script} exited ${String(code)}: ${err}`));
      else resolve(JSON.parse(out.trim().split('\n').pop() ?? 'null') as T);
    });
  });
}

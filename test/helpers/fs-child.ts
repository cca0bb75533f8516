import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { tsChildArgs } from './ts-child.js';

/** A spawned helper script and ways to wait on it. */
export interface Child {
  proc: ChildProcess;
  /** Resolves when the child has printed this line (rejects if it exits first). */
  line(text: string): Promise<void>;
  /** Resolves with how the child ended. */
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Whether the child has printed this line so far. */
  printed(text: string): boolean;
}

/** Runs `test/helpers/<script>` with `node --import tsx`, so it needs no build. */
export function spawnHelper(script: string, args: readonly string[]): Child {
  const file = fileURLToPath(new URL(`./${script}`, import.meta.url));
  const proc = spawn(process.execPath, [...tsChildArgs(file), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  proc.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    for (const w of [...waiters]) {
      if (out.split('\n').includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  });
  proc.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.on('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    proc,
    exit,
    stderr: () => err,
    printed: (text) => out.split('\n').includes(text),
    line: (text) =>
      new Promise<void>((resolve, reject) => {
        if (out.split('\n').includes(text)) return resolve();
        waiters.push({ text, resolve });
        void exit.then(({ code, signal }) => reject(new Error(`${script} exited (${String(code ?? signal)}) before "${text}": ${err}`)));
      }),
  };
}

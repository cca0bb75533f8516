// Runs several autopin-child processes so that they act at the same instant (all ready, then one go file), and collects
// each one's JSON answer.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tsChildArgs } from './ts-child.js';

const CHILD = fileURLToPath(new URL('./autopin-child.ts', import.meta.url));

export interface ChildAnswer {
  code: number | null;
  stdout: string;
  stderr: string;
  answer: Record<string, unknown> | null;
}

export async function raceChildren(argvs: string[][], goFile: string, env: Record<string, string | undefined>): Promise<ChildAnswer[]> {
  let readyCount = 0;
  let onAllReady: () => void = () => undefined;
  const allReady = new Promise<void>((resolve) => (onAllReady = resolve));
  const runs = argvs.map(
    (argv) =>
      new Promise<ChildAnswer>((resolve) => {
        const child = spawn(process.execPath, [...tsChildArgs(CHILD), ...argv, goFile], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        let ready = false;
        child.stdout.setEncoding('utf8').on('data', (d: string) => {
          out += d;
          if (!ready && out.includes('ready\n')) {
            ready = true;
            if (++readyCount === argvs.length) onAllReady();
          }
        });
        child.stderr.setEncoding('utf8').on('data', (d: string) => void (err += d));
        child.on('exit', (code) => {
          if (!ready && ++readyCount === argvs.length) onAllReady();
          const last = out.trim().split('\n').pop() ?? '';
          let answer: Record<string, unknown> | null = null;
          try {
            answer = last.startsWith('{') ? (JSON.parse(last) as Record<string, unknown>) : null;
          } catch {
            answer = null;
          }
          resolve({ code, stdout: out, stderr: err, answer });
        });
      }),
  );
  await allReady;
  writeFileSync(goFile, 'go');
  return Promise.all(runs);
}

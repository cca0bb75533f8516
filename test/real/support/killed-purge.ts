// A `mam purge` (the built bin, as a user runs it) SIGKILLed at a seeded random point of its run, then the same command
// run again (with the same `--workspace`): the rerun finishes the job (never "unresolved" while a byte of the id is on disk), and a byte search of the
// sandbox then finds the id nowhere but in the mentions the purge names.
import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import type { AgentName } from '../../../src/ids/agent-names.js';
import { MAM_BIN } from '../../helpers/mam-bin.js';
import { seededRandom } from '../../helpers/tier.js';
import { accountHits } from './account.js';
import { report } from './report.js';
import type { RealSandbox } from './sandbox.js';
import { filesContaining } from './tree.js';

interface MamRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  ms: number;
  stdout: string;
}

// Runs `mam <args>` under the sandbox's environment; SIGKILLed after `killAfterMs` when given.
function mam(sb: RealSandbox, args: readonly string[], killAfterMs?: number): Promise<MamRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [MAM_BIN, ...args], { cwd: sb.root, env: sb.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.resume();
  const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, ms: Date.now() - started, stdout });
    });
  });
}

const json = (run: MamRun): { mentions?: string[]; kind?: string } => {
  try {
    return JSON.parse(run.stdout) as { mentions?: string[]; kind?: string };
  } catch {
    return {};
  }
};

/**
 * Purges `id` with `mam purge`, SIGKILLed after a delay drawn from the seed (MAM_TEST_SEED, else a fresh one, printed):
 * between half and one and a half times a dry run's duration, around where the planning ends and the removals begin.
 * Then reruns the same scoped command and checks the laws; returns what it saw.
 */
export async function killedPurgeThenRerun(agent: AgentName, id: string, sb: RealSandbox, workspace: string): Promise<{ seed: number; killedAt: number; killed: boolean }> {
  const { random, seed } = seededRandom(Math.floor(Math.random() * 2 ** 31));
  const args = ['purge', agent, id, '--home', sb.home, '--workspace', workspace, '--json'];
  const dry = await mam(sb, [...args, '--dry-run']);
  expect(json(dry).kind, dry.stdout).toBe('dry-run');
  const killedAt = Math.round(dry.ms * (0.5 + random()));
  const killed = await mam(sb, args, killedAt);
  const tag = `seed ${seed}: mam purge ${agent} SIGKILLed after ${killedAt} ms (a dry run took ${dry.ms} ms; ${killed.signal === 'SIGKILL' ? 'killed' : `it had exited ${String(killed.code)} first`})`;
  process.stdout.write(`[real] ${tag}\n`);
  // The same scoped command, as a user reruns it: what the killed run left still says which workspace it was of.
  const rerun = await mam(sb, args);
  const body = json(rerun);
  const hits = filesContaining(sb.root, id);
  const mentions = [...(json(dry) as { mentions?: string[] }).mentions ?? [], ...(body.mentions ?? [])];
  const acc = accountHits(hits, { purged: [], residual: [], mentions });
  report(`${agent}: after a ${tag}, and a rerun (exit ${String(rerun.code)}, ${body.kind ?? 'no JSON'})`, acc);
  // Exit 0: purged now; 5: the killed run had finished everything (then nothing but mentions may hold the id).
  expect([0, 5], `${tag}: rerun ${rerun.stdout}`).toContain(rerun.code);
  expect(acc.unaccounted, tag).toEqual([]);
  return { seed, killedAt, killed: killed.signal === 'SIGKILL' };
}

// A child process for the AutoPin and loop-guard race tests: `node --import tsx autopin-child.ts <mode> …`, with the
// sandbox's environment. It prints `ready`, waits for the go file, acts, and prints one JSON line.
//   pin <ws> <home> <jobId> <token> <attempt> <goFile>   AutoPin.handleCompleted
//   guard <ws> <holdMs> <goFile>                          LoopGuard.acquire, held for holdMs, then released
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { AutoPin } from '../../src/autopin/index.js';
import { LoopGuard } from '../../src/loop/index.js';
import { nodePorts } from '../../src/node/node-ports.js';

const [mode, ...args] = process.argv.slice(2);

async function go(file: string): Promise<void> {
  process.stdout.write('ready\n');
  while (!existsSync(file)) await sleep(5);
}

async function main(): Promise<void> {
  const ports = nodePorts({ env: process.env });
  if (mode === 'pin') {
    const [ws = '', home = '', jobId = '', token = '', attempt = '1', goFile = ''] = args;
    const autopin = new AutoPin(ws, { ports, home });
    await go(goFile);
    const r = await autopin.handleCompleted(jobId, { dispatchToken: token, attempt: Number(attempt) });
    process.stdout.write(`${JSON.stringify(r)}\n`);
  } else if (mode === 'guard') {
    const [ws = '', holdMs = '0', goFile = ''] = args;
    const guard = new LoopGuard(ws, { ports });
    await go(goFile);
    const got = await guard.acquire({ holder: `child-${process.pid}` });
    if (got.kind === 'acquired') await sleep(Number(holdMs));
    const released = got.kind === 'acquired' ? await got.guard.release() : false;
    process.stdout.write(`${JSON.stringify({ kind: got.kind, released, message: got.kind === 'refused' ? got.message : null })}\n`);
  } else throw new Error(`unknown mode ${mode}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exitCode = 1;
});

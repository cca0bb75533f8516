// A child process for the pickPending race: `node --import tsx jobs-pick-child.ts <registryDir> <session> <goFile>`.
// Prints "ready", waits until <goFile> exists (so every racer starts at once), calls pickPending once, prints "picked <id|null>".
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { JobEngine } from '../../src/jobs/index.js';

const [registryDir = '', session = '', goFile = ''] = process.argv.slice(2);

async function main(): Promise<void> {
  const engine = new JobEngine(registryDir, { lockTimeoutMs: 20_000 });
  process.stdout.write('ready\n');
  while (!existsSync(goFile)) await sleep(2);
  const picked = await engine.pickPending(session, { source: `pid-${process.pid}` });
  process.stdout.write(`picked ${picked === null ? 'null' : picked.job_id}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

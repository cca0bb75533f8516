// A child process for the atomic-write crash test: `node --import tsx fs-atomic-writer.ts <target>`.
// Loops atomic writes of large, distinct, self-checking payloads until killed; prints "ready" after the first one.
import { writeFileAtomic } from '../../src/atomic/index.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { makePayload } from './fs-payload.js';

const target = process.argv[2] ?? '';
const fs = new NodeFileSystem();

async function main(): Promise<void> {
  for (let seq = Math.floor(Math.random() * 1e6); ; seq++) {
    await writeFileAtomic(fs, target, makePayload(seq));
    if (!process.stdout.writableEnded) process.stdout.write('ready\n');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

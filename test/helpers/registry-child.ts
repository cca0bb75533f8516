// A child process for the registry integration tests: `node --import tsx registry-child.ts <mode> <workspace> ...`.
//   count <ws> <n> <tag>   n updates, each appending row `<tag>-<i>` and adding one to the top-level `counter`; prints "done"
//   churn <ws>             updates until killed: add, change and remove rows with sizeable payloads; prints "ready" after the first
import { randomBytes } from 'node:crypto';
import { SessionRegistry } from '../../src/registry/index.js';

const [mode, ws = '', ...rest] = process.argv.slice(2);
const registry = new SessionRegistry(ws, { lockTimeoutMs: 60_000 });

function row(name: string, notes: string) {
  return { name, status: 'running' as const, role: 'reviewer', agent: 'claude' as const, pane: { cwd: ws, pid: process.pid, cmd: 'claude' }, notes };
}

async function count(n: number, tag: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    await registry.update((draft) => {
      draft.herdr_sessions.push(row(`${tag}-${i}`, `written by ${process.pid}`));
      draft['counter'] = (typeof draft['counter'] === 'number' ? draft['counter'] : 0) + 1;
    });
  }
  process.stdout.write('done\n');
}

async function churn(): Promise<void> {
  for (let seq = 0; ; seq++) {
    await registry.update((draft) => {
      const rows = draft.herdr_sessions;
      draft.herdr_sessions.push(row(`churn-${process.pid}-${seq}`, randomBytes(600).toString('base64')));
      if (rows.length > 30) rows.splice(Math.floor(Math.random() * rows.length), 1);
      const some = rows[Math.floor(Math.random() * rows.length)];
      if (some !== undefined) some.status = some.status === 'running' ? 'stopped' : 'running';
      draft['last_writer'] = { pid: process.pid, seq };
    });
    if (seq === 0) process.stdout.write('ready\n');
  }
}

async function main(): Promise<void> {
  if (mode === 'count') return count(Number(rest[0] ?? '0'), rest[1] ?? 'w');
  if (mode === 'churn') return churn();
  throw new Error(`unknown mode ${String(mode)}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

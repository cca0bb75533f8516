// Run as a child: `node --import tsx kit-lifeline-child.ts <dir>`. Builds a sandbox with one claude session, prints
// `{"pid": <the fake agent's pid>, "dir": <sandbox dir>}`, then waits, never disposing the sandbox: its parent kills it.
import { buildSandbox } from '../../src/testing/sandbox/build-sandbox.js';

const sb = await buildSandbox(process.argv[2] ?? '', { sessions: [{ name: 'orphan-claude', agent: 'claude', role: 'coder' }] });
process.stdout.write(`${JSON.stringify({ pid: sb.sessions[0]?.pid, dir: sb.dir })}\n`);
setInterval(() => undefined, 60_000);

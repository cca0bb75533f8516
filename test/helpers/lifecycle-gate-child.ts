// A real process that passes the id-order gate of a workspace's cwd, holds it for a while, then releases it (or never,
// when told to hang until killed). Run with tsx: <workspace> <session> <holdMs> <logFile>. Appends `enter <ms>` and
// `leave <ms>` lines (wall clock) to the log, or `refused` when the gate said no.
import { appendFileSync } from 'node:fs';
import { IdOrderGate } from '../../src/gate/id-order-gate.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';

const [workspace, session, holdText, log] = process.argv.slice(2) as [string, string, string, string];
const ports = { ...nodePorts(), herdr: new FakeHerdr() };
const gate = new IdOrderGate(workspace, { ports, waitSeconds: 20, pollMs: 20 });
const r = await gate.enter({ session, cwd: workspace, herdrServer: 'default' });
if (r.kind === 'refused') {
  appendFileSync(log, 'refused\n');
  process.exit(3);
}
appendFileSync(log, `enter ${Date.now()} ${process.pid}\n`);
const hold = Number(holdText);
if (hold < 0) setInterval(() => undefined, 1000);
else {
  await new Promise((res) => setTimeout(res, hold));
  appendFileSync(log, `leave ${Date.now()} ${process.pid}\n`);
  await r.ticket.release();
}

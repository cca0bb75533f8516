// Run as a child: `node --import <tsx loader> adapter-grok-in-use-child.ts <home>`, the id in $MAM_TEST_GROK_ID (so no
// ancestor's command line names it). Prints the grok adapter's in-use holders as this real caller sees them.
import { GrokAdapter } from '../../src/agents/grok/grok-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';

const [home] = process.argv.slice(2);
const id = process.env['MAM_TEST_GROK_ID'] ?? '';
const grok = new GrokAdapter(nodePorts());
const holders = await grok.inUseHolders(id, { workspace: home ?? '', home: home ?? '', env: {} });
process.stdout.write(`${JSON.stringify({ self: process.pid, ppid: process.ppid, holders })}\n`);

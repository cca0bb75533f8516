// Run as a child: `node --import <tsx loader> adapter-agy-probe.ts <agent> <home> <id>`. Asks the adapter, with the real
// ports and this process's own environment, whether the conversation is in use, and prints the holders as JSON.
import { getAdapter } from '../../src/agents/get-adapter.js';

const [agent, home, id] = process.argv.slice(2);
const adapter = getAdapter((agent ?? '') as Parameters<typeof getAdapter>[0]);
const holders = await adapter.inUseHolders(id ?? '', { workspace: home ?? '/', home: home ?? '/' });
process.stdout.write(`${JSON.stringify({ inUse: holders.length > 0, signals: holders.map((h) => h.signal), details: holders.map((h) => h.detail ?? null) })}\n`);

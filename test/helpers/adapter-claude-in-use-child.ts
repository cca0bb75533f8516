// Run as a child: `node --import <tsx loader> adapter-claude-in-use-child.ts <home> <workspace> <tmpdir> <id>`.
// Prints the claude adapter's in-use holders of <id>, as the real caller (its own environment and process tree) sees them.
import { ClaudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { nodePorts } from '../../src/node/node-ports.js';

const [home, workspace, tmp, id] = process.argv.slice(2);
const claude = new ClaudeAdapter(nodePorts());
const holders = await claude.inUseHolders(id ?? '', { workspace: workspace ?? '', home: home ?? '', env: { TMPDIR: tmp ?? '' } });
process.stdout.write(`${JSON.stringify({ self: process.pid, holders })}\n`);

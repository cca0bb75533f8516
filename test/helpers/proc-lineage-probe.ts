// Run as a child: `node --import <tsx loader> proc-lineage-probe.ts <proc|ps> <id>`.
// Prints the caller's helper chain and the processes naming <id> outside it, as JSON.
import { NodeProcessPort } from '../../src/node/node-process.js';
import { helperChain, processesNaming } from '../../src/process/index.js';

const [mode, id] = process.argv.slice(2);
const port = new NodeProcessPort({ useProc: mode === 'proc' });
const snapshot = await port.snapshot();
const { chain, agentAncestor } = helperChain(snapshot, port.selfPid());
const naming = processesNaming(snapshot, [id ?? ''], new Set(chain));
const commandOf = (pid: number): string => snapshot.find((p) => p.pid === pid)?.command ?? '';
process.stdout.write(
  `${JSON.stringify({
    self: port.selfPid(),
    chain: chain.map((pid) => ({ pid, command: commandOf(pid) })),
    agentAncestor: agentAncestor === null ? null : { pid: agentAncestor.pid, command: agentAncestor.command },
    naming: naming.map((p) => p.pid),
  })}\n`,
);

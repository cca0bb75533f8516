// A real zombie (a child that exited and that its parent has not reaped) is no live process: a Claude session file or a
// loop marker naming it is stale, and a purge is not refused because of it. Both process-table paths (/proc and ps).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../src/agents/claude/claude-adapter.js';
import { LoopGuard } from '../../src/loop/loop-guard.js';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { nodePorts } from '../../src/node/node-ports.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { liveMarkers } from '../../src/reset/live-markers.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeSessionFile, writeTranscript } from '../helpers/adapter-claude-sandbox.js';
import { startZombie, type TestZombie } from '../helpers/proc-zombie.js';
import { strs } from '../helpers/artifact-strings.js';

const paths = existsSync('/proc/self/stat') ? [['/proc', true] as const, ['ps', false] as const] : [['ps', false] as const];

describe.each(paths)('a real zombie via %s', (_name, useProc) => {
  const ports = { ...nodePorts(), proc: new NodeProcessPort({ useProc }) };
  let sb: ClaudeSandbox;
  let zombie: TestZombie;

  beforeEach(async () => {
    sb = await makeClaudeSandbox('mam-zombie-');
    zombie = await startZombie();
  });
  afterEach(async () => {
    await zombie.release();
    await sb.dispose();
  });

  it('the process table shows it as a zombie', async () => {
    expect(await ports.proc.lookup(zombie.pid)).toMatchObject({ pid: zombie.pid, ppid: zombie.parentPid, state: 'zombie' });
  });

  it('a claude session file naming the zombie is stale: not in use, and a purge removes it', async () => {
    const id = freshId();
    const z = await ports.proc.lookup(zombie.pid);
    const transcript = writeTranscript(sb, id);
    // Exactly the file the process wrote while it lived: its own start ticks (where /proc has them) and start time.
    const file = writeSessionFile(sb, zombie.pid, id, { procStart: z?.startTicks, startedAt: (z?.startedAtMs ?? 0) + 300 });
    const claude = new ClaudeAdapter(ports);
    expect(await claude.inUseHolders(id, sb.ctx())).toEqual([]);
    const result = await new PurgeService({ ports }).purge('claude', id, { home: sb.home, workspace: sb.ws, env: sb.env });
    expect(result).toMatchObject({ kind: 'purged', residual: [] });
    expect(result.kind === 'purged' ? strs(result.purged) : []).toEqual(expect.arrayContaining([transcript, file]));
    expect(existsSync(file)).toBe(false);
  });

  it("a loop marker naming the zombie is stale, and is no reset refusal", async () => {
    const z = await ports.proc.lookup(zombie.pid);
    mkdirSync(join(sb.ws, '.mam'), { recursive: true });
    const ticks = z?.startTicks === undefined ? '' : `start_ticks=${z.startTicks}\n`;
    writeFileSync(join(sb.ws, '.mam', 'loop-guard-active'), `pid=${zombie.pid}\n${ticks}`);
    const state = await new LoopGuard(sb.ws, { ports }).inspect();
    expect(state).toMatchObject({ kind: 'stale', reason: expect.stringContaining('zombie') });
    expect(await liveMarkers(ports, sb.ws)).toEqual([]);
  });
});

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tsChildArgs } from '../helpers/ts-child.js';

const ROOT = join(import.meta.dirname, '../..');
const PROBE = join(ROOT, 'test/helpers/proc-lineage-probe.ts');
const HELPER = join(ROOT, 'test/fixtures/bin/helper-chain.sh');
const ID = 'f3a0c2de-1111-4222-8333-944445555666';
const OTHER_ID = '0b1c2d3e-7777-4888-9999-aaaabbbbcccc';

interface Probe {
  self: number;
  chain: Array<{ pid: number; command: string }>;
  agentAncestor: { pid: number; command: string } | null;
  naming: number[];
}

const run = promisify(execFile);

// `[prefix…] helper-chain.sh node probe.ts <mode> <id>`; with `idOnlyOnProbe` the id reaches the probe's
// command line through the helper (MAM_APPEND_ARG) and is on no ancestor's.
async function probe(prefix: readonly string[], mode: 'proc' | 'ps', id: string, idOnlyOnProbe = false): Promise<Probe> {
  const argv = [...prefix, HELPER, process.execPath, ...tsChildArgs(PROBE), mode, ...(idOnlyOnProbe ? [] : [id])];
  const env = { ...process.env, MAM_APPEND_ARG: idOnlyOnProbe ? id : '' };
  const { stdout } = await run(argv[0] as string, argv.slice(1), { cwd: ROOT, env, timeout: 60_000 });
  return JSON.parse(stdout.trim().split('\n').pop() ?? '') as Probe;
}

const MODES: Array<'proc' | 'ps'> = existsSync('/proc/self/stat') ? ['proc', 'ps'] : ['ps'];

describe.each(MODES)('helper chain of a real process tree (%s)', (mode) => {
  let dir: string;
  let claude: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mam-lineage-'));
    await mkdir(join(dir, 'agent-bin'));
    claude = join(dir, 'agent-bin', 'claude');
    await copyFile(join(ROOT, 'test/fixtures/bin/fake-agent-cli'), claude);
    await run('chmod', ['755', claude]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('alone: the probe and its helper name the id but are its own chain, so nothing else names it', async () => {
    const out = await probe([], mode, ID);
    expect(out.chain[0]?.pid).toBe(out.self);
    expect(out.chain[0]?.command).toContain(ID);
    expect(out.chain[1]?.command).toContain('helper-chain.sh');
    expect(out.chain[1]?.command).toContain(ID);
    expect(out.naming).toEqual([]);
    // The suite itself may run inside a real agent session; it must not be our fake one.
    expect(out.agentAncestor?.command ?? '').not.toContain(dir);
  });

  it('under a `claude` that names the id: the chain stops below it and it is found as a naming process', async () => {
    const out = await probe([claude, '--session-id', ID, '--'], mode, ID);
    expect(out.agentAncestor?.command).toContain(join(dir, 'agent-bin', 'claude'));
    expect(out.chain.map((c) => c.pid)).toHaveLength(2);
    expect(out.chain[0]?.pid).toBe(out.self);
    expect(out.chain[1]?.command).toContain('helper-chain.sh');
    expect(out.chain.some((c) => c.command.includes('agent-bin/claude'))).toBe(false);
    expect(out.naming).toEqual([out.agentAncestor?.pid]);
  });

  it('under a `claude` of another conversation: the caller alone names the id, and that is allowed', async () => {
    const out = await probe([claude, '--session-id', OTHER_ID, '--'], mode, ID, true);
    expect(out.agentAncestor?.command).toContain(OTHER_ID);
    expect(out.agentAncestor?.command).not.toContain(ID);
    expect(out.chain).toHaveLength(2);
    expect(out.chain[0]?.command).toContain(ID);
    expect(out.chain[1]?.command).not.toContain(ID);
    expect(out.naming).toEqual([]);
  });

  it('under a `claude` whose command line carries the id anywhere: it names the id', async () => {
    const out = await probe([claude, '--session-id', OTHER_ID, '--'], mode, ID);
    expect(out.chain).toHaveLength(2);
    expect(out.naming).toEqual([out.agentAncestor?.pid]);
  });
});

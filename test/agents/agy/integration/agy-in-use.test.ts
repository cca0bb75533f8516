import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../../src/agents/agy/agy-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { agyTree, freshId } from '../../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { startChild, startSleeper, stopAll, type TestChild } from '../../../helpers/proc-children.js';
import { strs } from '../../../helpers/artifact-strings.js';
import { tsChildArgs } from '../../../helpers/ts-child.js';

const ROOT = join(import.meta.dirname, '../../../..');
const PROBE = join(ROOT, 'test/helpers/adapter-agy-probe.ts');
const HAS_FLOCK = spawnSync('sh', ['-c', 'command -v flock'], { stdio: 'ignore' }).status === 0;
const SESSION_VARS = ['ANTIGRAVITY_CONVERSATION_ID', 'CLAUDE_CODE_SESSION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID'];
const run = promisify(execFile);

let dir: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-inuse-'));
});
afterEach(async () => {
  await stopAll();
  await dispose();
});
afterAll(() => stopAll());

// The seed's lock holder: flock on the presence lock, the path in the environment, the id on no command line.
function holdLock(lock: string): Promise<TestChild> {
  if (!HAS_FLOCK) return startSleeper({ hold: lock });
  return startChild('sh', ['-c', 'exec 9<>"$MAM_TEST_LOCK" && flock -x 9 && echo ready && exec sleep 60'], { env: { ...process.env, MAM_TEST_LOCK: lock } });
}

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [...SESSION_VARS, 'CODEX_THREAD_ID', 'CODEX_SESSION_ID']) delete env[name];
  return { ...env, ...extra };
}

const agy = () => new AgyAdapter(nodePorts({ env: cleanEnv() }));

describe('agy in use, with real processes', () => {
  it('a live process naming the id on its command line: in use; the purge keeps only the lock', async () => {
    const home = join(dir, 'home');
    const id = freshId();
    const paths = agyTree(home, id);
    const ctx = { workspace: dir, home: home };
    expect(await agy().conversationInUse(id, ctx)).toBe(false);
    const holder = await startSleeper({ marker: id.toUpperCase() });
    const holders = await agy().inUseHolders(id, ctx);
    expect(holders.map((h) => [h.pid, h.signal])).toEqual([[holder.pid, 'command-line']]);
    const purged = strs(await agy().purgeArtifacts(id, ctx));
    expect(purged).toHaveLength(5);
    expect(existsSync(paths.lock)).toBe(true);
    expect(strs(await agy().residualArtifacts(id, ctx))).toEqual([paths.lock]);
    await stopAll();
    expect(await agy().conversationInUse(id, ctx)).toBe(false);
    expect(strs(await agy().purgeArtifacts(id, ctx))).toEqual([paths.lock]);
  });

  it('a live process holding the presence lock (flock) with the id on no command line: in use, the lock survives the purge', async () => {
    const home = join(dir, 'home');
    const id = freshId();
    const paths = agyTree(home, id);
    const ctx = { workspace: dir, home: home };
    const holder = await holdLock(paths.lock);
    const holders = await agy().inUseHolders(id, ctx);
    expect(holders).toEqual([expect.objectContaining({ pid: holder.pid, signal: 'open-file', detail: paths.lock })]);
    const purged = strs(await agy().purgeArtifacts(id, ctx));
    expect(purged).not.toContain(paths.lock);
    for (const k of ['db', 'wal', 'shm', 'brain', 'annotation'] as const) expect(existsSync(paths[k]), k).toBe(false);
    expect(existsSync(paths.lock)).toBe(true);
    await stopAll();
    expect(await agy().conversationInUse(id, ctx)).toBe(false);
    expect(strs(await agy().purgeArtifacts(id, ctx))).toEqual([paths.lock]);
  });

  it('a live process holding the database open counts as well', async () => {
    const home = join(dir, 'home');
    const id = freshId();
    const paths = agyTree(home, id, ['db']);
    const holder = await startSleeper({ hold: paths.db });
    expect((await agy().inUseHolders(id, { workspace: dir, home: home })).map((h) => h.pid)).toEqual([holder.pid]);
  });

  it.each(SESSION_VARS)('the caller\'s own session (%s) makes it in use, computed in a real child', async (name) => {
    const home = join(dir, 'home');
    const id = freshId();
    agyTree(home, id, ['db']);
    const probe = async (env: NodeJS.ProcessEnv) => {
      const { stdout } = await run(process.execPath, [...tsChildArgs(PROBE), 'agy', home, id], { cwd: ROOT, env, timeout: 60_000 });
      return JSON.parse(stdout.trim().split('\n').pop() ?? '') as { inUse: boolean; signals: string[]; details: Array<string | null> };
    };
    expect(await probe(cleanEnv({ [name]: id.toUpperCase() }))).toEqual({ inUse: true, signals: ['session-env'], details: [name] });
    // The probe names the id on its own command line: its helper chain does not count.
    expect(await probe(cleanEnv())).toEqual({ inUse: false, signals: [], details: [] });
  });
});

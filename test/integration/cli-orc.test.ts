// `mam orc` end to end: the example CLI over Orchestrators, with the exit codes and messages of purge.md's table
// (seed 002: orc_onboard.sh). Fresh ids per test: the in-use check scans every process on the host.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { orcCommand } from '../../src/cli/commands/orc.js';
import { agyTree, type AgyTree } from '../helpers/adapter-agy-files.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { MAM_BIN } from '../helpers/mam-bin.js';

const SESSION_ENV = ['CLAUDE_CODE_SESSION_ID', 'ANTIGRAVITY_CONVERSATION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID'];

interface Run {
  code: number;
  out: string;
  err: string;
}

describe('mam orc', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  let id: string;
  let holder: ChildProcess | undefined;

  // In process (the real process table, explicit --workspace and --home).
  async function orc(...args: string[]): Promise<Run> {
    let out = '';
    let err = '';
    const code = await orcCommand([...args, '--workspace', dir, '--home', dir], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
    return { code, out, err };
  }

  // A real `mam` process run from the workspace, HOME = the workspace, no session variable but the ones given.
  function mam(extra: Record<string, string>, ...args: string[]): Run {
    const env: Record<string, string | undefined> = { ...process.env, HOME: dir, ...extra };
    for (const v of SESSION_ENV) if (!(v in extra)) delete env[v];
    const res = spawnSync(process.execPath, [MAM_BIN, 'orc', ...args], { cwd: dir, env, encoding: 'utf8' });
    return { code: res.status ?? -1, out: res.stdout, err: res.stderr };
  }

  const present = (t: AgyTree): boolean => Object.values(t).every((p) => existsSync(p));
  const registered = async (): Promise<boolean> => (await orc('--list')).out.split('\n').includes(id);

  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-cli-orc-'));
    id = randomUUID();
  });
  afterEach(async () => {
    holder?.kill('SIGKILL');
    holder = undefined;
    await dispose();
  });

  it('--purge-conversation without --remove is a usage error (exit 2) and registers nothing', async () => {
    expect((await orc('--uuid', id, '--purge-conversation', '--yes')).code).toBe(2);
    expect(await registered()).toBe(false);
    expect((await orc('--uuid', 'not-an-id')).code).toBe(2);
    expect((await orc('--remove', '../../x', '--purge-conversation', '--yes')).code).toBe(2);
    expect((await orc()).code).toBe(2);
  });

  it('remove + purge without --yes: exit 4, "Re-run with --yes", artifacts and registration untouched', async () => {
    const tree = agyTree(dir, id);
    expect((await orc('--uuid', id)).code).toBe(0);
    const r = await orc('--remove', id, '--purge-conversation');
    expect(r.code).toBe(4);
    expect(r.err).toContain('Re-run with --yes');
    expect(present(tree)).toBe(true);
    expect(await registered()).toBe(true);
  });

  it('remove + purge + --yes: one purged line per item, residual none (agent: agy), success, unregistered', async () => {
    const tree = agyTree(dir, id);
    await orc('--uuid', id);
    const r = await orc('--remove', id, '--purge-conversation', '--yes');
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('purged: ').length - 1).toBe(6);
    expect(r.out).toContain('residual: none (agent: agy)');
    expect(r.out).toContain(`Successfully removed orchestrator UUID ${id}`);
    expect(Object.values(tree).some((p) => existsSync(p))).toBe(false);
    expect(await registered()).toBe(false);
  });

  it('remove + purge + --yes while another process names the id: exit 5, "still in use", everything kept', async () => {
    const tree = agyTree(dir, id);
    await orc('--uuid', id);
    holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)', '--', '--conversation', id], { stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    const r = await orc('--remove', id, '--purge-conversation', '--yes');
    expect(r.code).toBe(5);
    expect(r.err).toContain('still in use');
    expect(r.err).toContain(`holder pid ${holder.pid}`);
    expect(present(tree)).toBe(true);
    expect(await registered()).toBe(true);
  });

  it('remove + purge + --yes from the orchestrator\'s own session (a real process): exit 5, everything kept', async () => {
    const tree = agyTree(dir, id);
    expect(mam({}, '--uuid', id).code).toBe(0);
    const r = mam({ CLAUDE_CODE_SESSION_ID: id }, '--remove', id, '--purge-conversation', '--yes');
    expect(r.code, r.out + r.err).toBe(5);
    expect(r.err).toContain('still in use');
    expect(present(tree)).toBe(true);
    expect(mam({}, '--list').out).toContain(id);
  });

  it('remove + purge + --yes with no artifacts: "nothing to purge" on stderr, still unregistered', async () => {
    await orc('--uuid', id);
    const r = await orc('--remove', id, '--purge-conversation', '--yes');
    expect(r.code).toBe(0);
    expect(r.err).toContain('nothing to purge');
    expect(r.out).toContain(`Successfully removed orchestrator UUID ${id}`);
    expect(await registered()).toBe(false);
  });

  it('--dry-run says it would purge its conversation artifacts and changes nothing', async () => {
    const tree = agyTree(dir, id);
    await orc('--uuid', id);
    const r = await orc('--remove', id, '--purge-conversation', '--yes', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.out).toContain('purge its conversation artifacts');
    expect(present(tree)).toBe(true);
    expect(await registered()).toBe(true);
  });
});

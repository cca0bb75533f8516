// The codex in-use signals on a fake process table: command lines outside the caller's helper chain, the caller's own
// CODEX_THREAD_ID / CODEX_SESSION_ID, holders of the writer lock or the rollout (not of the shared databases) — from one
// snapshot and one holders call.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodexAdapter } from '../../../src/agents/codex/codex-adapter.js';
import type { HomeDiscoveryContext } from '../../../src/agents/types.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { type FakeProcess, FakeProcessTable } from '../../../src/testing/process/index.js';
import { buildCodexHome, codexDir, rolloutPath, v7, type ThreadSpec } from '../../helpers/adapter-codex-home.js';

let ctx: HomeDiscoveryContext;
let t: ThreadSpec;
let home: string;
let root: string;
const ID = v7(3);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mam-codex-fakeuse-'));
  home = join(root, 'home');
  t = { id: ID, cwd: join(root, 'ws'), updated: 2_000_000_000 };
  buildCodexHome(home, [t]);
  ctx = { workspace: t.cwd, home: home, env: { CODEX_HOME: codexDir(home) } };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

// self (30) ← helper sh (20) ← top (10)
function table(top: string[], opts: { env?: Record<string, string>; others?: FakeProcess[] } = {}): FakeProcessTable {
  return new FakeProcessTable(
    [{ pid: 1, argv: ['init'] }, { pid: 10, ppid: 1, argv: top }, { pid: 20, ppid: 10, argv: ['sh', '-c', `mam purge codex ${ID}`] }, ...(opts.others ?? [])],
    { self: { pid: 30, ppid: 20, argv: ['node', 'mam', 'purge', 'codex', ID], ...(opts.env ? { env: opts.env } : {}) } },
  );
}

function adapter(proc: FakeProcessTable): CodexAdapter {
  return new CodexAdapter({ fs: new NodeFileSystem(), proc, herdr: undefined as never, clock: undefined as never });
}

describe('codex in-use on a fake process table', () => {
  it('declares CODEX_THREAD_ID as its session variable', () => {
    expect(adapter(table(['bash'])).sessionEnvVar).toBe('CODEX_THREAD_ID');
  });

  it('the caller and its helper chain naming the id do not count', async () => {
    expect(await adapter(table(['bash'])).inUseHolders(ID, ctx)).toEqual([]);
  });

  it('the Codex session the caller runs in, naming the id, counts', async () => {
    expect((await adapter(table(['codex', 'resume', ID])).inUseHolders(ID, ctx)).map((h) => [h.pid, h.signal])).toEqual([[10, 'command-line']]);
  });

  it('another process naming the upper-case spelling counts', async () => {
    const proc = table(['bash'], { others: [{ pid: 99, ppid: 1, argv: ['codex', 'resume', ID.toUpperCase()] }] });
    expect((await adapter(proc).inUseHolders(ID, ctx)).map((h) => h.pid)).toEqual([99]);
  });

  it.each(['CODEX_THREAD_ID', 'CODEX_SESSION_ID'])('the caller\'s own %s names it', async (name) => {
    const holders = await adapter(table(['bash'], { env: { [name]: ID } })).inUseHolders(ID, ctx);
    expect(holders).toEqual([expect.objectContaining({ pid: 30, signal: 'session-env', detail: name })]);
  });

  it('a holder of the writer lock or the rollout counts, a holder of a shared database does not; one snapshot, one holders call', async () => {
    const dir = codexDir(home);
    const lock = join(dir, 'thread-writer-locks', `${ID}.lock`);
    const proc = table(['bash'], {
      others: [
        { pid: 41, ppid: 1, argv: ['sleep', '60'], openFiles: [lock] },
        { pid: 42, ppid: 1, argv: ['sleep', '60'], openFiles: [rolloutPath(home, t)] },
        { pid: 43, ppid: 1, argv: ['codex'], openFiles: [join(dir, 'state_5.sqlite'), join(dir, 'state_5.sqlite-wal'), join(dir, 'logs_2.sqlite')] },
      ],
    });
    const holders = await adapter(proc).inUseHolders(ID, ctx);
    expect(holders.map((h) => [h.pid, h.signal, h.detail])).toEqual([
      [41, 'open-file', lock],
      [42, 'open-file', rolloutPath(home, t)],
    ]);
    expect(proc.snapshotCalls).toBe(1);
    expect(proc.holdersCalls).toBe(1);
  });

  it('a stale lock file (no holder) is not evidence', async () => {
    expect(await adapter(table(['bash'])).conversationInUse(ID, ctx)).toBe(false);
  });
});

describe('codex inUseHints are safe to paste (issue 13)', () => {
  it('an implausible id unquoted in a shell command: none is given for it', () => {
    const a = adapter(table(['bash']));
    for (const bad of ['x; rm -rf ~', "x' ; touch /tmp/pwned #", '$(id)', '`id`', '../x', '']) expect(a.inUseHints(bad, ctx)).toEqual([]);
  });
  it('a home with spaces and quotes is single-quoted in the lsof hint', () => {
    const odd = join(root, "it's my home");
    const hints = adapter(table(['bash'])).inUseHints(ID, { ...ctx, env: { CODEX_HOME: join(odd, '.codex') } });
    expect(hints).toEqual([`ps -axww | grep ${ID}`, `lsof '${join(odd, '.codex', 'thread-writer-locks').replaceAll("'", "'\\''")}/${ID}.lock'`]);
  });
});

describe('shellQuote', () => {
  it('leaves plain path characters alone and single-quotes the rest, so a shell reads back the same word', async () => {
    const { shellQuote } = await import('../../../src/agents/common/in-use.js');
    const { spawnSync } = await import('node:child_process');
    for (const w of ['abc-1.2', "it's", 'a b', '$(id)', '`x`', ';rm', "'", '\\n', 'é']) {
      const out = spawnSync('sh', ['-c', `printf %s ${shellQuote(w)}`], { encoding: 'utf8' }).stdout;
      expect(out).toBe(w);
    }
    expect(shellQuote('abc-1.2')).toBe('abc-1.2');
  });
});

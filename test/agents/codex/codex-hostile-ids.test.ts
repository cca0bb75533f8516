// Ids that are not a plausible Codex id reach NO path: not a read, not a stat, not a process lookup — even when the home
// holds files a naive glob would take for theirs (`shell_snapshots/memory.1.sh`, `thread-writer-locks/notes.lock`).
import fc from 'fast-check';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodexAdapter } from '../../../src/agents/codex/codex-adapter.js';
import type { HomeDiscoveryContext } from '../../../src/agents/types.js';
import { isUuid } from '../../../src/ids/agent-id.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { Ports } from '../../../src/ports/index.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { buildCodexHome, codexDir, v7 } from '../../helpers/adapter-codex-home.js';
import { SpyFileSystem } from '../../helpers/adapter-codex-spy.js';
import { strs } from '../../helpers/artifact-strings.js';

const HOSTILE = ['memory', 'notes', '../x', '/etc', '', 'a\0b', '..', '*', `${v7(1)}\n`, ` ${v7(1)}`, `../${v7(1)}`, 'ses_0123456789abAbCdEfGhIjKlMn', `${v7(1)}.lock`];
let home: string;
let root: string;
let ctx: HomeDiscoveryContext;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mam-codex-hostile-'));
  home = join(root, 'home');
  buildCodexHome(home, [{ id: v7(1), cwd: join(root, 'ws'), updated: 2_000_000_000 }]);
  const dir = codexDir(home);
  for (const name of ['memory.1.sh', 'notes.1.sh', '.1.sh']) writeFileSync(join(dir, 'shell_snapshots', name), 'secret');
  for (const name of ['memory.lock', 'notes.lock', '.lock']) writeFileSync(join(dir, 'thread-writer-locks', name), '');
  mkdirSync(join(dir, 'sessions', 'memory'), { recursive: true });
  writeFileSync(join(dir, 'sessions', 'rollout-2026-01-01T00-00-00-memory.jsonl'), '{}\n');
  ctx = { workspace: join(root, 'ws'), home: home, env: { CODEX_HOME: dir } };
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

function adapterWithSpies(): { adapter: CodexAdapter; fs: SpyFileSystem; proc: FakeProcessTable } {
  const fs = new SpyFileSystem(new NodeFileSystem());
  const proc = new FakeProcessTable([{ pid: 50, argv: ['codex', 'resume', 'memory'] }]);
  const ports = { fs, proc, herdr: undefined as never, clock: undefined as never } satisfies Ports;
  return { adapter: new CodexAdapter(ports), fs, proc };
}

async function everyEntryPoint(adapter: CodexAdapter, id: string): Promise<unknown[]> {
  return [
    strs(await adapter.purgeArtifacts(id, ctx)),
    await adapter.hasArtifacts(id, ctx),
    strs(await adapter.residualArtifacts(id, ctx)),
    strs(await adapter.mentions(id, ctx)),
    await adapter.verifyArtifact(id, ctx),
    await adapter.verifyArtifact(id, ctx, 'discover'),
    await adapter.inUseHolders(id, ctx),
    await adapter.conversationInUse(id, ctx),
  ];
}

describe('codex: an implausible id reaches no path', () => {
  it.each(HOSTILE.map((h) => [JSON.stringify(h), h]))('%s: nothing removed, nothing found, nothing touched', async (_label, id) => {
    const { adapter, fs, proc } = adapterWithSpies();
    expect(await everyEntryPoint(adapter, id)).toEqual([[], false, [], [], false, false, [], false]);
    expect(fs.calls).toEqual([]);
    expect(proc.snapshotCalls + proc.holdersCalls + proc.lookupCalls).toBe(0);
    expect(existsSync(join(codexDir(home), 'shell_snapshots', 'memory.1.sh'))).toBe(true);
    expect(existsSync(join(codexDir(home), 'thread-writer-locks', 'notes.lock'))).toBe(true);
  });

  it('holds for any string that is not a uuid (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), async (id) => {
        fc.pre(!isUuid(id));
        const { adapter, fs, proc } = adapterWithSpies();
        expect(await everyEntryPoint(adapter, id)).toEqual([[], false, [], [], false, false, [], false]);
        expect(fs.calls).toEqual([]);
        expect(proc.snapshotCalls + proc.holdersCalls).toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('a plausible id does reach the home (so the spies above can see a path)', async () => {
    const { adapter, fs } = adapterWithSpies();
    expect(await adapter.hasArtifacts(v7(1), ctx)).toBe(true);
    expect(fs.calls.length).toBeGreaterThan(0);
  });
});

describe('codex: an upper-case uuid is its lower-case twin', () => {
  it('a process naming the live lower-case id makes the upper-case spelling in use; paths are the lower-case ones', async () => {
    const id = v7(1);
    const proc = new FakeProcessTable([{ pid: 60, ppid: 1, argv: ['codex', 'resume', id] }], { self: { pid: 70, ppid: 1, argv: ['node', 'mam', 'purge', id.toUpperCase()] } });
    const adapter = new CodexAdapter({ fs: new NodeFileSystem(), proc, herdr: undefined as never, clock: undefined as never });
    expect((await adapter.inUseHolders(id.toUpperCase(), ctx)).map((h) => [h.pid, h.signal])).toEqual([[60, 'command-line']]);
    const residual = strs(await adapter.residualArtifacts(id.toUpperCase(), ctx));
    expect(residual.length).toBeGreaterThan(0);
    expect(residual.every((r) => !r.includes(id.toUpperCase()))).toBe(true);
    expect(adapter.inUseHints(id.toUpperCase(), ctx)).toEqual([`ps -axww | grep ${id}`, `lsof ${join(codexDir(home), 'thread-writer-locks', `${id}.lock`)}`]);
  });
});

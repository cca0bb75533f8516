import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { agyRootOf, agyTree, agyTreePaths, freshId, portsWith, writeAgyCache } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { strs } from '../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-purge-'));
  home = join(dir, 'home');
  mkdirSync(home);
});
afterEach(() => dispose());

const self = { pid: 500, ppid: 1, argv: ['node', 'mam', 'purge'] };
function adapter(table = new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self })): AgyAdapter {
  return new AgyAdapter(portsWith(table));
}
const ctx = () => ({ workspace: dir, home: home });

describe('agy purge (seed #10)', () => {
  it('identity: post-discovered uuid agent exporting ANTIGRAVITY_CONVERSATION_ID', () => {
    const a = adapter();
    expect([a.name, a.ownKey, a.idLifecycle, a.sessionEnvVar]).toEqual(['agy', 'agy_conversation_id_own', 'post_discovered', 'ANTIGRAVITY_CONVERSATION_ID']);
    const id = freshId();
    expect(a.resumeArgs(id.toUpperCase())).toEqual(['--conversation', id]);
    expect(a.resumeArgs('../x')).toEqual([]);
  });

  it('removes the db, its sidecars, the brain, the annotation and the lock: 6 items, lock last, residual empty', async () => {
    const id = freshId();
    const paths = agyTree(home, id);
    const a = adapter();
    expect(await a.hasArtifacts(id, ctx())).toBe(true);
    const purged = strs(await a.purgeArtifacts(id, ctx()));
    expect(purged).toHaveLength(6);
    expect(purged[purged.length - 1]).toBe(paths.lock);
    expect(new Set(purged)).toEqual(new Set(Object.values(paths)));
    for (const p of Object.values(paths)) expect(existsSync(p), p).toBe(false);
    expect(strs(await a.residualArtifacts(id, ctx()))).toEqual([]);
    expect(await a.hasArtifacts(id, ctx())).toBe(false);
  });

  it('also removes a -journal left beside the db (7 items at most)', async () => {
    const id = freshId();
    const paths = agyTree(home, id);
    writeFileSync(`${paths.db}-journal`, 'j');
    expect(strs(await adapter().purgeArtifacts(id, ctx()))).toHaveLength(7);
    expect(existsSync(`${paths.db}-journal`)).toBe(false);
  });

  it('reports only what existed: a garbage db + brain → 2 items (the historical contract)', async () => {
    const id = freshId();
    const paths = agyTreePaths(home, id);
    mkdirSync(join(paths.db, '..'), { recursive: true });
    writeFileSync(paths.db, 'db');
    mkdirSync(paths.brain, { recursive: true });
    expect(strs(await adapter().purgeArtifacts(id, ctx()))).toEqual([paths.brain, paths.db]);
  });

  it('keeps the presence lock while a process names the conversation, then removes it once nothing does', async () => {
    const id = freshId();
    const paths = agyTree(home, id);
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 77, ppid: 1, argv: ['agy', '--conversation', id] }], { self });
    const a = adapter(table);
    const purged = strs(await a.purgeArtifacts(id, ctx()));
    expect(purged).not.toContain(paths.lock);
    expect(purged).toHaveLength(5);
    expect(existsSync(paths.lock)).toBe(true);
    expect(strs(await a.residualArtifacts(id, ctx()))).toEqual([paths.lock]);
    expect(await a.hasArtifacts(id, ctx())).toBe(true);
    table.kill(77);
    expect(strs(await a.purgeArtifacts(id, ctx()))).toEqual([paths.lock]);
    expect(strs(await a.residualArtifacts(id, ctx()))).toEqual([]);
  });

  it('keeps the lock while a process holds it open with the id on no command line (one lsof call per check)', async () => {
    const id = freshId();
    const paths = agyTree(home, id);
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 88, ppid: 1, argv: ['sleep', '60'], openFiles: [paths.lock] }], { self });
    const a = adapter(table);
    expect(await a.conversationInUse(id, ctx())).toBe(true);
    expect(table.holdersCalls).toBe(1);
    expect(table.snapshotCalls).toBe(1);
    const holders = await a.inUseHolders(id, ctx());
    expect(holders).toEqual([expect.objectContaining({ pid: 88, signal: 'open-file', detail: paths.lock })]);
    strs(await a.purgeArtifacts(id, ctx()));
    expect(existsSync(paths.lock)).toBe(true);
    expect(existsSync(paths.db)).toBe(false);
  });

  it.each(['db', 'wal', 'shm'] as const)('counts a holder of the %s as in use', async (part) => {
    const id = freshId();
    const paths = agyTree(home, id);
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 88, ppid: 1, argv: ['python3'], openFiles: [paths[part]] }], { self });
    expect(await adapter(table).conversationInUse(id, ctx())).toBe(true);
  });

  it.each(['ANTIGRAVITY_CONVERSATION_ID', 'CLAUDE_CODE_SESSION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID'])(
    'is in use from the session\'s own shell (%s), and the purge then keeps the lock',
    async (name) => {
      const id = freshId();
      const paths = agyTree(home, id);
      const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self: { ...self, env: { [name]: id } } });
      const a = adapter(table);
      expect(await a.conversationInUse(id, ctx())).toBe(true);
      strs(await a.purgeArtifacts(id, ctx()));
      expect(existsSync(paths.lock)).toBe(true);
    },
  );

  it('orphaned leftovers (a -wal, an annotation and a lock without the db) are artifacts and are purged', async () => {
    const id = freshId();
    const paths = agyTree(home, id, ['wal', 'annotation', 'lock']);
    const a = adapter();
    expect(await a.hasArtifacts(id, ctx())).toBe(true);
    expect((strs(await a.purgeArtifacts(id, ctx()))).sort()).toEqual([paths.annotation, paths.lock, paths.wal].sort());
    expect(strs(await a.residualArtifacts(id, ctx()))).toEqual([]);
    expect(await a.hasArtifacts(id, ctx())).toBe(false);
  });

  it('leaves every other conversation and the shared cache alone, and reports the cache as a mention', async () => {
    const id = freshId();
    const other = freshId();
    agyTree(home, id);
    const kept = agyTree(home, other);
    const cache = writeAgyCache(home, { [dir]: id, '/elsewhere': other });
    const a = adapter();
    expect(strs(await a.mentions(id, ctx()))).toEqual([cache]);
    strs(await a.purgeArtifacts(id, ctx()));
    for (const p of Object.values(kept)) expect(existsSync(p), p).toBe(true);
    expect(strs(await a.mentions(id, ctx()))).toEqual([cache]);
    expect(strs(await a.mentions(other, ctx()))).toEqual([cache]);
    expect(strs(await a.mentions(freshId(), ctx()))).toEqual([]);
    expect(existsSync(join(agyRootOf(home), 'brain', other, 'note.txt'))).toBe(true);
  });

  it('hints name ps and the lock and db for lsof', () => {
    const id = freshId();
    const paths = agyTreePaths(home, id);
    expect(adapter().inUseHints(id.toUpperCase(), ctx())).toEqual([`ps -axww | grep ${id}`, `lsof ${paths.lock} ${paths.db}`]);
  });

  it.each(['; rm -rf ~', '$(reboot)', '../x'])('no hint carries the implausible id %j into a shell command', (bad) => {
    expect(adapter().inUseHints(bad, ctx())).toEqual([]);
  });
});

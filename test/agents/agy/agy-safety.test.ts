import fc from 'fast-check';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { isUuid } from '../../../src/ids/agent-id.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem, agyRootOf, agyTree, agyTreePaths, freshId, hashTree, portsWith, writeAgyCache } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { strs } from '../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-safe-'));
  home = join(dir, 'home');
  mkdirSync(home);
});
afterEach(() => dispose());

const HOSTILE = ['memory', 'notes', '../x', '/etc', '', 'a\0b', `${'0'.repeat(8)}-0000-4000-8000-00000000000`, 'ses_0123456789abAbCdEfGhIjKlMn', '../../home'];

describe('agy: an implausible id reaches no path', () => {
  it.each(HOSTILE)('%j: purge, residual, hasArtifacts, mentions and in-use touch nothing', async (bad) => {
    const root = agyRootOf(home);
    // Entries named exactly like the hostile id, where a careless adapter would build its paths.
    for (const d of ['conversations', 'brain', 'annotations', 'presence']) mkdirSync(join(root, d), { recursive: true });
    if (/^[a-z]+$/.test(bad)) {
      writeFileSync(join(root, 'conversations', `${bad}.db`), 'x');
      mkdirSync(join(root, 'brain', bad));
      writeFileSync(join(root, 'presence', `${bad}.lock`), '');
    }
    const before = hashTree(dir);
    const spy = new SpyFileSystem();
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 9, ppid: 1, argv: ['agy', bad] }]);
    const a = new AgyAdapter(portsWith(table, spy.port));
    const ctx = { workspace: dir, home: home };
    expect(strs(await a.purgeArtifacts(bad, ctx))).toEqual([]);
    expect(strs(await a.residualArtifacts(bad, ctx))).toEqual([]);
    expect(await a.hasArtifacts(bad, ctx)).toBe(false);
    expect(strs(await a.mentions(bad, ctx))).toEqual([]);
    expect(await a.conversationInUse(bad, ctx)).toBe(false);
    expect(await a.verifyArtifact(bad, ctx)).toBe(false);
    expect(spy.calls).toEqual([]);
    expect(table.snapshotCalls + table.holdersCalls).toBe(0);
    expect(hashTree(dir)).toEqual(before);
  });

  it('property: no string that is not a uuid reaches the filesystem or the process table', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary' }), async (bad) => {
        fc.pre(!isUuid(bad));
        const spy = new SpyFileSystem();
        const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }]);
        const a = new AgyAdapter(portsWith(table, spy.port));
        const ctx = { workspace: dir, home: home };
        const out = [strs(await a.purgeArtifacts(bad, ctx)), strs(await a.residualArtifacts(bad, ctx)), await a.hasArtifacts(bad, ctx), await a.conversationInUse(bad, ctx)];
        expect(out).toEqual([[], [], false, false]);
        expect(spy.calls).toEqual([]);
        expect(table.snapshotCalls).toBe(0);
      }),
      { numRuns: 200 },
    );
  });

  it('an upper-case uuid is the live lower-case conversation: in use, same paths', async () => {
    const id = freshId();
    const paths = agyTree(home, id);
    const table = new FakeProcessTable([{ pid: 1, argv: ['init'] }, { pid: 9, ppid: 1, argv: ['agy', '--conversation', id] }]);
    const a = new AgyAdapter(portsWith(table));
    const ctx = { workspace: dir, home: home };
    expect(await a.conversationInUse(id.toUpperCase(), ctx)).toBe(true);
    expect((strs(await a.residualArtifacts(id.toUpperCase(), ctx))).sort()).toEqual(Object.values(paths).sort());
    // And a live process naming the upper-case spelling guards the lower-case id.
    table.kill(9);
    table.add({ pid: 20, ppid: 1, argv: ['agy', '--conversation', id.toUpperCase()] });
    expect(await a.conversationInUse(id, ctx)).toBe(true);
  });
});

describe('agy: linked directories', () => {
  it('a root that is itself a link is fine', async () => {
    const real = join(dir, 'dotfiles-gemini');
    mkdirSync(real);
    symlinkSync(real, join(home, '.gemini'));
    const id = freshId();
    const paths = agyTree(home, id);
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
    expect(strs(await a.purgeArtifacts(id, { workspace: dir, home: home }))).toHaveLength(6);
    for (const p of Object.values(paths)) expect(existsSync(p)).toBe(false);
  });

  it('a key dir linking outside is not followed: its entry stays, is residual, and hasArtifacts stays true', async () => {
    const outside = join(dir, 'outside-brain');
    const id = freshId();
    mkdirSync(join(outside, id), { recursive: true });
    writeFileSync(join(outside, id, 'precious.md'), 'keep');
    mkdirSync(agyRootOf(home), { recursive: true });
    symlinkSync(outside, join(agyRootOf(home), 'brain'));
    const paths = agyTree(home, id, ['db', 'annotation', 'lock']);
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
    const ctx = { workspace: dir, home: home };
    const brain = agyTreePaths(home, id).brain;
    expect(await a.hasArtifacts(id, ctx)).toBe(true);
    const purged = strs(await a.purgeArtifacts(id, ctx));
    expect(purged.sort()).toEqual([paths.annotation, paths.db, paths.lock].sort());
    expect(existsSync(join(outside, id, 'precious.md'))).toBe(true);
    expect(strs(await a.residualArtifacts(id, ctx))).toEqual([brain]);
    expect(await a.hasArtifacts(id, ctx)).toBe(true);
  });

  it('a leaf link is removed as the link alone', async () => {
    const id = freshId();
    const target = join(dir, 'elsewhere.pbtxt');
    writeFileSync(target, 'keep');
    const ann = agyTreePaths(home, id).annotation;
    mkdirSync(join(ann, '..'), { recursive: true });
    symlinkSync(target, ann);
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
    expect(strs(await a.purgeArtifacts(id, { workspace: dir, home: home }))).toEqual([ann]);
    expect(existsSync(target)).toBe(true);
  });
});

describe('agy: a layout it does not know fails closed', () => {
  it.each([
    ['an unknown directory naming the id', (id: string) => join('knowledge', `${id}.md`)],
    ['an unknown name in the ACP root', (id: string) => join('..', 'antigravity-acp', 'conversations', `${id}.json`)],
    ['an unknown name in a known directory', (id: string) => join('conversations', `${id}.db-mj0AB12`)],
    ['an unknown top-level entry', (id: string) => `${id}.json`],
  ])('%s: discovery still works, purge removes nothing, residual names the refusal', async (_label, rel) => {
    const id = freshId();
    const ws = join(dir, 'ws');
    mkdirSync(ws);
    const paths = agyTree(home, id);
    writeAgyCache(home, { [ws]: id });
    const extra = join(agyRootOf(home), rel(id));
    mkdirSync(join(extra, '..'), { recursive: true });
    writeFileSync(extra, 'new format');
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
    const ctx = { workspace: ws, home: home };
    expect(await a.discover(ctx)).toEqual([id]);
    const before = hashTree(home);
    expect(strs(await a.purgeArtifacts(id, ctx))).toEqual([]);
    expect(hashTree(home)).toEqual(before);
    const residual = strs(await a.residualArtifacts(id, ctx));
    expect(residual).toContain(`${extra} (unknown layout: refusing to purge)`);
    expect(residual).toContain(paths.db);
    expect(await a.hasArtifacts(id, ctx)).toBe(true);
  });

  it('a conversation "database" that is a directory is not a layout it knows', async () => {
    const id = freshId();
    const db = agyTreePaths(home, id).db;
    mkdirSync(join(db, 'pages'), { recursive: true });
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
    const ctx = { workspace: dir, home: home };
    expect(strs(await a.purgeArtifacts(id, ctx))).toEqual([]);
    expect(existsSync(join(db, 'pages'))).toBe(true);
    expect(strs(await a.residualArtifacts(id, ctx))).toEqual([db, `${db} (unknown layout: refusing to purge)`]);
  });

  it('an entry naming another conversation does not block this one', async () => {
    const id = freshId();
    agyTree(home, id);
    const other = join(agyRootOf(home), 'implicit', `${freshId()}.pb`);
    mkdirSync(join(other, '..'), { recursive: true });
    writeFileSync(other, 'x');
    const a = new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
    expect(strs(await a.purgeArtifacts(id, { workspace: dir, home: home }))).toHaveLength(6);
    expect(existsSync(other)).toBe(true);
  });
});

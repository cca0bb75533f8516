import { mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { agyTree, freshId, portsWith, writeAgyCache, writeAgyDb } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let wsA: string;
let wsB: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-disc-'));
  home = join(dir, 'home');
  wsA = join(dir, 'ws-a');
  wsB = join(dir, 'ws-b');
  for (const d of [home, wsA, wsB]) mkdirSync(d);
});
afterEach(() => dispose());

const agy = () => new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
const T0 = 1_800_000_000_000;

describe('agy discover', () => {
  it('finds the conversation the cache maps this workspace to, and nothing for another workspace', async () => {
    const a = freshId();
    const b = freshId();
    agyTree(home, a);
    agyTree(home, b);
    writeAgyCache(home, { [wsA]: a, [wsB]: b });
    expect(await agy().discover({ workspace: wsA, home: home })).toEqual([a]);
    expect(await agy().discover({ workspace: wsB, home: home })).toEqual([b]);
    expect(await agy().discover({ workspace: join(dir, 'nowhere'), home: home })).toEqual([]);
  });

  it('matches the workspace through a link (the cache records realpaths) and lists newest first', async () => {
    const old = freshId();
    const recent = freshId();
    writeAgyDb(join(home, '.gemini/antigravity-cli/conversations', `${old}.db`), T0);
    writeAgyDb(join(home, '.gemini/antigravity-cli/conversations', `${recent}.db`), T0 + 60_000);
    const link = join(dir, 'ws-link');
    symlinkSync(wsA, link);
    // Two spellings of one workspace: an older CLI wrote the link, the current one the realpath.
    writeAgyCache(home, { [link]: old, [wsA]: recent });
    expect(await agy().discover({ workspace: link, home: home })).toEqual([recent, old]);
    expect(await agy().discover({ workspace: wsA, home: home })).toEqual([recent, old]);
  });

  it('keeps only conversations active at or after the epoch (the newer of the db and -wal mtimes)', async () => {
    const id = freshId();
    const db = join(home, '.gemini/antigravity-cli/conversations', `${id}.db`);
    writeAgyDb(db, T0);
    writeAgyCache(home, { [wsA]: id });
    const ctx = { workspace: wsA, home: home };
    expect(await agy().discover({ ...ctx, epoch: T0 / 1000 })).toEqual([id]);
    expect(await agy().discover({ ...ctx, epoch: T0 / 1000 + 1 })).toEqual([]);
    writeFileSync(`${db}-wal`, '');
    utimesSync(`${db}-wal`, T0 / 1000 + 5, T0 / 1000 + 5);
    expect(await agy().discover({ ...ctx, epoch: T0 / 1000 + 1 })).toEqual([id]);
  });

  it('skips a mapped id without a readable conversation database, an implausible value and a malformed cache', async () => {
    const garbage = freshId();
    const missing = freshId();
    const p = agyTree(home, garbage, ['brain']);
    mkdirSync(join(p.db, '..'), { recursive: true });
    writeFileSync(p.db, 'not sqlite');
    writeAgyCache(home, { [wsA]: garbage, [wsB]: missing, [join(dir, 'x')]: '../../etc' });
    expect(await agy().discover({ workspace: wsA, home: home })).toEqual([]);
    expect(await agy().discover({ workspace: wsB, home: home })).toEqual([]);
    writeFileSync(join(home, '.gemini/antigravity-cli/cache/last_conversations.json'), '{"broken":');
    expect(await agy().discover({ workspace: wsA, home: home })).toEqual([]);
  });

  it('a db whose schema is empty (a CLI that just created it) is not a conversation yet', async () => {
    const id = freshId();
    const db = join(home, '.gemini/antigravity-cli/conversations', `${id}.db`);
    mkdirSync(join(db, '..'), { recursive: true });
    writeFileSync(db, '');
    writeAgyCache(home, { [wsA]: id });
    expect(await agy().discover({ workspace: wsA, home: home })).toEqual([]);
    expect(await agy().verifyArtifact(id, { workspace: wsA, home: home })).toBe(false);
  });
});

describe('agy verifyArtifact', () => {
  it('verify mode: on disk and not mapped only to another workspace', async () => {
    const mine = freshId();
    const theirs = freshId();
    const unmapped = freshId();
    for (const id of [mine, theirs, unmapped]) agyTree(home, id, ['db']);
    writeAgyCache(home, { [wsA]: mine, [wsB]: theirs });
    const ctx = { workspace: wsA, home: home };
    expect(await agy().verifyArtifact(mine, ctx)).toBe(true);
    expect(await agy().verifyArtifact(mine.toUpperCase(), ctx)).toBe(true);
    expect(await agy().verifyArtifact(theirs, ctx)).toBe(false);
    expect(await agy().verifyArtifact(unmapped, ctx)).toBe(true);
    expect(await agy().verifyArtifact(freshId(), ctx)).toBe(false);
  });

  it('discover mode: the cache must map this workspace to it, and ids other rows record never pass', async () => {
    const mine = freshId();
    const theirs = freshId();
    const unmapped = freshId();
    for (const id of [mine, theirs, unmapped]) agyTree(home, id, ['db']);
    writeAgyCache(home, { [wsA]: mine, [wsB]: theirs });
    const ctx = { workspace: wsA, home: home };
    expect(await agy().verifyArtifact(mine, ctx, 'discover')).toBe(true);
    expect(await agy().verifyArtifact(theirs, ctx, 'discover')).toBe(false);
    expect(await agy().verifyArtifact(unmapped, ctx, 'discover')).toBe(false);
    expect(await agy().verifyArtifact(mine, { ...ctx, siblingClaimedIds: [mine.toUpperCase()] }, 'discover')).toBe(false);
    expect(await agy().verifyArtifact(mine, { ...ctx, siblingClaimedIds: [mine] }, 'verify')).toBe(true);
  });

  it('an id mapped to this workspace and another one too belongs here', async () => {
    const id = freshId();
    agyTree(home, id, ['db']);
    writeAgyCache(home, { [wsB]: id, [wsA]: id });
    expect(await agy().verifyArtifact(id, { workspace: wsA, home: home }, 'discover')).toBe(true);
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../src/agents/agy/agy-adapter.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { freshId, hashTree, portsWith } from '../../helpers/adapter-agy-files.js';
import { agyCliRoot, writeAgyAcp, writeAgyFile, writeAgyRealDb, writeAgySummaries } from '../../helpers/adapter-agy-real-files.js';
import { strs } from '../../helpers/artifact-strings.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let gemini: string;
let ws: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-hostile-'));
  home = join(dir, 'home');
  gemini = join(home, '.gemini');
  ws = join(dir, 'ws');
  for (const d of [home, ws]) mkdirSync(d);
});
afterEach(() => dispose());

const agy = () => new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self: { pid: 500, ppid: 1, argv: ['node'] } })));
const ctx = () => ({ workspace: ws, home: home, env: {} });
const fifo = (path: string): string => {
  mkdirSync(join(path, '..'), { recursive: true });
  execFileSync('mkfifo', [path]);
  return path;
};

describe('agy: FIFOs are never opened', () => {
  it('a FIFO as the conversation database: discovery goes on, purge refuses with the path and reason in the residual', async () => {
    const id = freshId();
    const db = fifo(join(agyCliRoot(gemini), 'conversations', `${id}.db`));
    const good = freshId();
    writeAgyRealDb(gemini, good, { workspaces: [ws] });
    expect(await agy().discover(ctx())).toEqual([good]);
    expect(await agy().verifyArtifact(id, ctx())).toBe(false);
    expect(strs(await agy().purgeArtifacts(id, ctx()))).toEqual([]);
    expect(strs(await agy().residualArtifacts(id, ctx()))).toEqual([db, `${db} (not a regular file: refusing to purge)`]);
  });

  it.each(['cache/last_conversations.json', 'history.jsonl', 'conversation_summaries.db'])('a FIFO as the shared %s does not hang any call', async (rel) => {
    const id = freshId();
    writeAgyRealDb(gemini, id, { workspaces: [ws] });
    fifo(join(agyCliRoot(gemini), rel));
    expect(await agy().discover(ctx())).toEqual([id]);
    expect(strs(await agy().mentions(id, ctx()))).toEqual([]);
    const purged = strs(await agy().purgeArtifacts(id, ctx()));
    expect(purged).toEqual([join(agyCliRoot(gemini), 'conversations', `${id}.db`)]);
    const residual = strs(await agy().residualArtifacts(id, ctx()));
    expect(residual).toEqual(rel.endsWith('.db') ? [`${join(agyCliRoot(gemini), rel)} (not a regular file: not read)`] : []);
  });

  it('a FIFO as an ACP .meta: the ACP conversation records no workspace', async () => {
    const id = freshId();
    const { meta } = writeAgyAcp(gemini, id, null);
    fifo(meta);
    expect(await agy().discover(ctx())).toEqual([]);
    expect(await agy().verifyArtifact(id, ctx(), 'verify')).toBe(true);
  });
});

describe('agy: reads leave the tree as found', () => {
  it('regression: a garbage database beside a -wal and -shm kept its -wal through residual, mentions and discover', async () => {
    const id = freshId();
    const db = writeAgyFile(gemini, `conversations/${id}.db`, 'x');
    writeAgyFile(gemini, `conversations/${id}.db-wal`, 'x');
    writeAgyFile(gemini, `conversations/${id}.db-shm`, 'x');
    const before = hashTree(dir);
    strs(await agy().residualArtifacts(freshId(), ctx()));
    strs(await agy().mentions(freshId(), ctx()));
    await agy().discover(ctx());
    expect(strs(await agy().residualArtifacts(id, ctx()))).toEqual([`${db}-wal`, `${db}-shm`, db]);
    expect(hashTree(dir)).toEqual(before);
  });

  it('an unreadable shared index is a doubt in the residual, never an artifact of an unrelated id', async () => {
    writeAgyFile(gemini, 'conversation_summaries.db', 'not sqlite');
    const id = freshId();
    expect(await agy().hasArtifacts(id, ctx())).toBe(false);
    expect(strs(await agy().residualArtifacts(id, ctx()))).toEqual([`${join(agyCliRoot(gemini), 'conversation_summaries.db')} (not a SQLite database: not read)`]);
  });
});

describe('agy: links are never followed into another tree', () => {
  it('a conversation database that is a link is not read; purge removes the link alone', async () => {
    const elsewhere = join(dir, 'elsewhere');
    const target = writeAgyRealDb(elsewhere, freshId(), { workspaces: [ws] });
    const id = freshId();
    const link = join(agyCliRoot(gemini), 'conversations', `${id}.db`);
    mkdirSync(join(link, '..'), { recursive: true });
    symlinkSync(target, link);
    expect(await agy().discover(ctx())).toEqual([]);
    expect(strs(await agy().purgeArtifacts(id, ctx()))).toEqual([link]);
    expect(existsSync(target)).toBe(true);
  });

  it('a linked subagents dir listing another conversation does not hand that conversation to the purge', async () => {
    const parent = freshId();
    const victim = freshId();
    writeAgyRealDb(gemini, parent, { workspaces: [ws] });
    const victimDb = writeAgyRealDb(gemini, victim, { workspaces: [ws] });
    const outside = join(dir, 'outside-subagents');
    mkdirSync(outside);
    writeFileSync(join(outside, `${victim}.json`), '{}');
    const gen = join(agyCliRoot(gemini), 'brain', parent, '.system_generated');
    mkdirSync(gen, { recursive: true });
    symlinkSync(outside, join(gen, 'subagents'));
    strs(await agy().purgeArtifacts(parent, ctx()));
    expect(existsSync(victimDb)).toBe(true);
    expect(existsSync(join(outside, `${victim}.json`))).toBe(true);
  });

  it('a subagents record naming a top-level conversation does not make it a child: it stays', async () => {
    const parent = freshId();
    const other = freshId();
    writeAgyRealDb(gemini, parent, { workspaces: [ws] });
    const otherDb = writeAgyRealDb(gemini, other, { workspaces: [join(dir, 'ws-2')] });
    writeAgyFile(gemini, `brain/${parent}/.system_generated/subagents/${other}.json`, '{}');
    await agy().purgeArtifacts(parent, ctx());
    expect(existsSync(otherDb)).toBe(true);
  });

  it('hostile names in a subagents dir (not uuids, traversal) name no conversation', async () => {
    const parent = freshId();
    writeAgyRealDb(gemini, parent, { workspaces: [ws] });
    for (const name of ['..json', '../x.json', 'memory.json', `${freshId().toUpperCase()}.json`]) {
      if (name.includes('/')) continue;
      writeAgyFile(gemini, `brain/${parent}/.system_generated/subagents/${name}`, '{}');
    }
    const keep = writeAgyFile(gemini, 'brain/memory/notes.md');
    strs(await agy().purgeArtifacts(parent, ctx()));
    expect(existsSync(keep)).toBe(true);
    expect(strs(await agy().residualArtifacts(parent, ctx()))).toEqual([]);
  });
});

describe('agy: the shared summaries index is written only through its own files', () => {
  it.each(['hard-linked', 'a symlink', 'a -wal symlink'])('an index that is %s is not written: its rows are residual with the reason', async (how) => {
    const id = freshId();
    writeAgyRealDb(gemini, id, { workspaces: [ws] });
    const db = writeAgySummaries(gemini, [id, freshId()]);
    if (how === 'hard-linked') linkSync(db, join(dir, 'other-name.db'));
    if (how === 'a -wal symlink') symlinkSync(join(dir, 'nowhere'), `${db}-wal`);
    if (how === 'a symlink') {
      const real = join(dir, 'real-summaries.db');
      linkSync(db, real);
      unlinkSync(db);
      symlinkSync(real, db);
    }
    const before = hashTree(dir);
    const a = agy();
    const purged = strs(await a.purgeArtifacts(id, ctx()));
    expect(purged.some((p) => p.includes('conversation_summaries'))).toBe(false);
    const residual = strs(await a.residualArtifacts(id, ctx()));
    // The rows stay on record, each line naming the index and why it was not written (or could not even be read).
    expect(residual.length).toBeGreaterThan(0);
    for (const line of residual) expect(line.startsWith(`${db} (`), line).toBe(true);
    if (how === 'hard-linked') expect(residual).toEqual([`${db} (conversation_summaries.conversation_id: 1 rows)`, expect.stringMatching(/2 hard links/)]);
    if (how === 'a symlink') expect(residual).toContain(`${db} (not a regular file: not read)`);
    const after = hashTree(dir);
    for (const rel of Object.keys(before).filter((r) => r.includes('summaries'))) expect(after[rel], rel).toEqual(before[rel]);
  });
});

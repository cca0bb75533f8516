// The agy adapter against the derived fixture of real agy 1.0–1.3 layouts (test/fixtures/derived/agy, EXPECTED.json):
// discovery from each conversation's own workspace record, subagents, the fork's .pb, the shared summaries index.
import Database from 'better-sqlite3';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgyAdapter } from '../../../../src/agents/agy/agy-adapter.js';
import { agyPaths } from '../../../../src/agents/agy/agy-paths.js';
import { surveyAgy } from '../../../../src/agents/agy/agy-survey.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { hashTree, portsWith } from '../../../helpers/adapter-agy-files.js';
import { type AgyDerivedStage, materialiseAgyDerived } from '../../../helpers/adapter-agy-derived.js';
import { strs } from '../../../helpers/artifact-strings.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let s: AgyDerivedStage;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-derived-'));
  s = materialiseAgyDerived(dir);
});
afterEach(() => dispose());

const A1 = 'a1a1a1a1-1111-4222-8333-0000a1a1a1a1';
const A2 = 'a2a2a2a2-1111-4222-8333-0000a2a2a2a2';
const CHILD = '51515151-1111-4222-8333-000051515151';
const B1 = 'b1b1b1b1-1111-4222-8333-0000b1b1b1b1';

const agy = () => new AgyAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self: { pid: 500, ppid: 1, argv: ['node', 'mam'] } })));
const ws = (name: 'a' | 'b') => join(dir, `ws-agy-${name}`);
const ctx = (w = ws('a')) => ({ workspace: w, home: s.home, env: {} });
const summaryIds = (): string[] => {
  const db = new Database(join(s.cli, 'conversation_summaries.db'), { readonly: true });
  try {
    return (db.prepare('SELECT conversation_id FROM conversation_summaries ORDER BY conversation_id').pluck().all() as string[]);
  } finally {
    db.close();
  }
};

describe('agy discover and verify on the real layout', () => {
  it('discover lists each workspace\'s top-level conversations newest first (EXPECTED top_level_newest_first)', async () => {
    for (const [w, e] of Object.entries(s.expected.workspaces)) expect(await agy().discover(ctx(w)), w).toEqual(e.top_level_newest_first);
  });

  it('every conversation, subagents included, is read from its own database newest first (EXPECTED all_newest_first_including_subagents)', async () => {
    const all = await surveyAgy(new NodeFileSystem(), agyPaths(s.home));
    for (const [w, e] of Object.entries(s.expected.workspaces)) {
      const here = all.filter((c) => c.cli?.workspaces.includes(w)).sort((x, y) => y.activityMs - x.activityMs);
      expect(here.map((c) => c.id)).toEqual(e.all_newest_first_including_subagents);
    }
    const child = all.find((c) => c.id === CHILD);
    expect([child?.cli?.parent, child?.cli?.depth]).toEqual([A2, 1]);
  });

  it('the older conversation the cache no longer names passes discover-mode verify (the cache is only a hint)', async () => {
    expect(JSON.parse(readFileSync(join(s.cli, 'cache/last_conversations.json'), 'utf8'))[ws('a')]).toBe(A2);
    expect(await agy().verifyArtifact(A1, ctx(), 'discover')).toBe(true);
    expect(await agy().verifyArtifact(A1, ctx(ws('b')), 'verify')).toBe(false);
  });

  it('a subagent conversation verifies for a pinned id but is never a discover-mode candidate', async () => {
    expect(await agy().verifyArtifact(CHILD, ctx(), 'verify')).toBe(true);
    expect(await agy().verifyArtifact(CHILD, ctx(), 'discover')).toBe(false);
  });

  it('the database\'s own record beats a cache entry that maps it to another workspace', async () => {
    expect(await agy().verifyArtifact(B1, ctx(ws('b')), 'discover')).toBe(true);
    expect(await agy().verifyArtifact(B1, ctx(ws('a')), 'discover')).toBe(false);
  });
});

describe('agy purge on the real layout', () => {
  it('a top-level conversation: its own paths and its summaries row go, history.jsonl is a mention, others stay', async () => {
    const e = s.expected.conversations[A1];
    if (e === undefined) throw new Error('no a1');
    const mine = e.own_paths.map((r) => s.abs(r.split('/').slice(0, 2).join('/')));
    const before = hashTree(dir, (rel) => mine.some((m) => join(dir, rel) === m || join(dir, rel).startsWith(`${m}/`)) || rel.endsWith('conversation_summaries.db'));
    const purged = strs(await agy().purgeArtifacts(A1, ctx()));
    expect(purged).toContain(`${join(s.cli, 'conversation_summaries.db')} (conversation_summaries.conversation_id: 1 rows)`);
    for (const p of e.own_paths) expect(existsSync(s.abs(p)), p).toBe(false);
    expect(hashTree(dir, (rel) => rel.endsWith('conversation_summaries.db'))).toEqual(before);
    expect(summaryIds()).toEqual([CHILD, A2, B1].sort());
    expect(strs(await agy().residualArtifacts(A1, ctx()))).toEqual([]);
    // The fork a2 keeps its FORK reference to a1 (EXPECTED other_paths_naming_it): another conversation's record.
    expect(strs(await agy().mentions(A1, ctx()))).toEqual([join(s.cli, 'history.jsonl'), `${s.abs(`conversations/${A2}.db`)} (parent_references.data: 1 rows)`]);
  });

  it('the fork purges its .pb beside the .db, and its subagent conversation with the parent-side record', async () => {
    const own = [...(s.expected.conversations[A2]?.own_paths ?? []), ...(s.expected.conversations[CHILD]?.own_paths ?? [])];
    expect(own).toContain(`conversations/${A2}.pb`);
    for (const p of own) expect(existsSync(s.abs(p)), p).toBe(true);
    expect(strs(await agy().residualArtifacts(A2, ctx()))).not.toContainEqual(expect.stringContaining('unknown layout'));
    const purged = strs(await agy().purgeArtifacts(A2, ctx()));
    for (const p of own) expect(existsSync(s.abs(p)), p).toBe(false);
    expect(purged).toEqual(expect.arrayContaining([s.abs(`conversations/${A2}.pb`), s.abs(`conversations/${CHILD}.db`), s.abs(`brain/${CHILD}`)]));
    expect(purged.filter((p) => p.includes('conversation_summaries'))).toEqual([`${join(s.cli, 'conversation_summaries.db')} (conversation_summaries.conversation_id: 2 rows)`]);
    expect(summaryIds()).toEqual([A1, B1].sort());
    expect(strs(await agy().residualArtifacts(A2, ctx()))).toEqual([]);
    expect(await agy().hasArtifacts(CHILD, ctx())).toBe(false);
    expect(await agy().hasArtifacts(A1, ctx())).toBe(true);
    expect((strs(await agy().mentions(A2, ctx()))).sort()).toEqual([join(s.cli, 'cache/last_conversations.json'), join(s.cli, 'history.jsonl')].sort());
    expect(await agy().discover(ctx())).toEqual([A1]);
  });

  it('a subagent purged alone takes its parent-side record and leaves the parent whole', async () => {
    const record = s.abs(`brain/${A2}/.system_generated/subagents/${CHILD}.json`);
    const parent = s.expected.conversations[A2]?.own_paths.filter((p) => !p.includes('subagents')) ?? [];
    const purged = strs(await agy().purgeArtifacts(CHILD, ctx()));
    expect(purged).toContain(record);
    expect(existsSync(record)).toBe(false);
    for (const p of parent) expect(existsSync(s.abs(p)), p).toBe(true);
    expect(summaryIds()).toEqual([A1, A2, B1].sort());
    expect(strs(await agy().residualArtifacts(CHILD, ctx()))).toEqual([]);
    expect(await agy().discover(ctx())).toEqual([A2, A1]);
  });

  it('the presence lock goes last; the cache entry stays as a mention', async () => {
    const purged = strs(await agy().purgeArtifacts(B1, ctx(ws('b'))));
    expect(purged[purged.length - 1]).toBe(s.abs(`presence/${B1}.lock`));
    expect(relative(s.cli, purged[0] ?? '')).toBe('conversation_summaries.db (conversation_summaries.conversation_id: 1 rows)');
    expect(strs(await agy().mentions(B1, ctx(ws('b'))))).toEqual([join(s.cli, 'cache/last_conversations.json')]);
    expect(await agy().discover(ctx(ws('b')))).toEqual([]);
  });
});

describe('agy purge preview on the real layout', () => {
  it('planPurge of the fork lists its .pb, its subagent and the index rows, refuses nothing, changes nothing', async () => {
    const before = hashTree(dir);
    const plan = await agy().planPurge(A2, ctx());
    const listed = strs(plan.artifacts);
    expect(listed).toContain(`${join(s.cli, 'conversation_summaries.db')} (conversation_summaries.conversation_id: 2 rows)`);
    for (const rel of [`conversations/${A2}.pb`, `conversations/${A2}.db`, `conversations/${CHILD}.db`, `brain/${CHILD}`, `brain/${A2}`]) expect(listed).toContain(s.abs(rel));
    expect(plan.refused).toEqual([]);
    expect(strs(plan.mentions).sort()).toEqual([join(s.cli, 'cache/last_conversations.json'), join(s.cli, 'history.jsonl')].sort());
    expect(plan.notes).toHaveLength(1);
    expect(hashTree(dir)).toEqual(before);
  });

  it('planPurge refuses everything, with the path, when an entry naming a subagent is not understood', async () => {
    const odd = s.abs(`knowledge/${CHILD}.md`);
    mkdirSync(join(odd, '..'), { recursive: true });
    writeFileSync(odd, 'x');
    const plan = await agy().planPurge(A2, ctx());
    expect(plan.artifacts).toEqual([]);
    expect(strs(plan.refused)[0]).toBe(`${odd} (unknown layout: refusing to purge)`);
    expect(strs(await agy().purgeArtifacts(A2, ctx()))).toEqual([]);
    expect(existsSync(s.abs(`conversations/${A2}.db`))).toBe(true);
  });
});


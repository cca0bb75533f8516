import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../../src/agents/grok/grok-encode.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { PurgeService } from '../../../../src/purge/purge-service.js';
import { freshId, hashTree, portsWith } from '../../../helpers/adapter-agy-files.js';
import { GROK_IDS, type GrokStage, materializeGrokStage, searchState } from '../../../helpers/adapter-grok-stage.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let st: GrokStage;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-fc-'));
  st = materializeGrokStage(dir);
});
afterEach(() => dispose());

const grok = () => new GrokAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
const ctx = (workspace = st.wsA) => ({ workspace, home: st.home, env: {} });
const { a1, a2, c1 } = GROK_IDS;
const bucketA = () => join(st.grok, 'sessions', encodeGrokCwd(st.wsA) ?? 'x');

describe('grok fails closed on what it does not understand', () => {
  it.each([
    ['missing', (d: string) => rmSync(join(d, 'summary.json'))],
    ['unparseable', (d: string) => writeFileSync(join(d, 'summary.json'), '{"info": {')],
    ['a FIFO', (d: string) => (rmSync(join(d, 'summary.json')), execFileSync('mkfifo', [join(d, 'summary.json')]))],
  ])('a session dir named by the id whose summary.json is %s is planned by its name and purged (never discovered)', async (_what, spoil) => {
    const d = join(bucketA(), a1);
    spoil(d);
    expect(await grok().discover(ctx())).toEqual([a2]);
    expect(await grok().hasArtifacts(a1, ctx())).toBe(true);
    expect((await grok().planPurge(a1, ctx())).artifacts).toContainEqual({ kind: 'dir', path: d });
    expect(strs(await grok().purgeArtifacts(a1, ctx()))).toContain(d);
    expect(existsSync(d)).toBe(false);
  });

  it('a dir whose summary.json names another session is refused, with the reason, and left as it is', async () => {
    const d = join(bucketA(), a1);
    const other = freshId();
    writeFileSync(join(d, 'summary.json'), JSON.stringify({ info: { id: other, cwd: st.wsA } }));
    const before = hashTree(d);
    expect(strs(await grok().purgeArtifacts(a1, ctx()))).toEqual([`${st.searchDb} (session_docs.session_id: 1 rows)`]);
    expect(hashTree(d)).toEqual(before);
    expect(strs(await grok().residualArtifacts(a1, ctx()))).toEqual([`${d} (its summary.json names session ${other}: not purged)`]);
  });

  it('a parent\'s meta.json naming a visible (non-subagent) session does not take it: refused, reported', async () => {
    const meta = join(bucketA(), a2, 'subagents', a1);
    mkdirSync(meta);
    writeFileSync(join(meta, 'meta.json'), JSON.stringify({ child_session_id: a1 }));
    expect((await grok().planPurge(a2, ctx())).refused).toEqual([
      { kind: 'dir', path: join(bucketA(), a1), reason: 'a parent names it as a subagent child, but it is not a subagent session: not purged' },
    ]);
    const purged = strs(await grok().purgeArtifacts(a2, ctx()));
    expect(purged).toContain(join(bucketA(), c1));
    expect(existsSync(join(bucketA(), a1))).toBe(true);
    expect(await grok().discover(ctx())).toEqual([a1]);
  });

  it('a session dir behind a linked bucket is found, never followed, and residual with why', async () => {
    const outside = join(dir, 'outside');
    mkdirSync(outside);
    renameSync(join(bucketA(), a1), join(outside, a1));
    symlinkSync(outside, join(st.grok, 'sessions', 'linked-bucket-0123456789abcdef'));
    const before = hashTree(outside);
    expect(await grok().hasArtifacts(a1, ctx())).toBe(true);
    await grok().purgeArtifacts(a1, ctx());
    expect(hashTree(outside)).toEqual(before);
    expect(strs(await grok().residualArtifacts(a1, ctx()))).toEqual([
      `${join(st.grok, 'sessions', 'linked-bucket-0123456789abcdef', a1)} (behind a linked bucket: not followed)`,
    ]);
  });

  it('a session "dir" that is a link is removed as the link alone; a FIFO under the id is refused, and nothing blocks', async () => {
    const target = join(dir, 'target');
    renameSync(join(bucketA(), a1), target);
    symlinkSync(target, join(bucketA(), a1));
    const fifo = join(st.grok, 'sessions', encodeGrokCwd(st.wsB) ?? 'x', a1);
    execFileSync('mkfifo', [fifo]);
    const before = hashTree(target);
    expect(strs(await grok().purgeArtifacts(a1, ctx()))).toContain(join(bucketA(), a1));
    expect(hashTree(target)).toEqual(before);
    expect(strs(await grok().residualArtifacts(a1, ctx()))).toEqual([`${fifo} (named by the id but not a directory grok writes: not removed)`]);
  });

  it('a linked sessions/ is not followed: nothing behind it is touched, and the residual says why', async () => {
    const elsewhere = join(dir, 'elsewhere-sessions');
    renameSync(join(st.grok, 'sessions'), elsewhere);
    symlinkSync(elsewhere, join(st.grok, 'sessions'));
    const before = hashTree(elsewhere);
    expect(strs(await grok().purgeArtifacts(a1, ctx()))).toEqual([]);
    expect(hashTree(elsewhere)).toEqual(before);
    expect(strs(await grok().residualArtifacts(a1, ctx()))).toEqual([`${join(st.grok, 'sessions')} (sessions/ is a symbolic link: not followed)`]);
  });

  it('an unknown search database layout (an extra trigger) is refused with the reason; the rows stay', async () => {
    const db = new Database(st.searchDb);
    db.exec('CREATE TABLE audit (session_id TEXT); CREATE TRIGGER audit_ad AFTER DELETE ON session_docs BEGIN INSERT INTO audit VALUES (old.session_id); END');
    db.close();
    const plan = await grok().planPurge(a1, ctx());
    expect(plan.refused).toEqual([{ kind: 'rows', db: st.searchDb, table: 'session_docs', column: 'session_id', count: 1, reason: 'unknown search database layout (triggers audit_ad): not purged' }]);
    await grok().purgeArtifacts(a1, ctx());
    expect(searchState(st.searchDb, 'lake').docs).toContain(a1);
    expect(strs(await grok().residualArtifacts(a1, ctx()))).toEqual([
      `${st.searchDb} (session_docs.session_id: 1 rows) (unknown search database layout (triggers audit_ad): not purged)`,
    ]);
  });

  it('a search database that is no database is named in the residual (it may hold the row); the session dir still goes', async () => {
    writeFileSync(st.searchDb, 'not a database at all, but long enough to be read as a header of one...........');
    expect(strs(await grok().purgeArtifacts(a1, ctx()))).toEqual([join(bucketA(), a1)]);
    const left = strs(await grok().residualArtifacts(a1, ctx()));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`^${st.searchDb.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(search database unreadable`));
  });

  it('a hard-linked search database is never written (dbWriteRefusal): the row stays, with the reason', async () => {
    linkSync(st.searchDb, join(dir, 'second-name.sqlite'));
    const purged = strs(await grok().purgeArtifacts(a1, ctx()));
    expect(purged).toEqual([join(bucketA(), a1)]);
    const left = strs(await grok().residualArtifacts(a1, ctx()));
    expect(left).toEqual([`${st.searchDb} (session_docs.session_id: 1 rows) (${st.searchDb} has 2 hard links: a write would change another file too)`]);
  });

  it.each(['../x', '', '/etc', `${a1}/..`, 'memory', a1.replace(/-/g, '')])('hostile id %j reaches nothing and never throws', async (bad) => {
    const before = hashTree(st.home);
    const g = grok();
    expect(strs(await g.purgeArtifacts(bad, ctx()))).toEqual([]);
    expect(strs(await g.residualArtifacts(bad, ctx()))).toEqual([]);
    expect(await g.hasArtifacts(bad, ctx())).toBe(false);
    expect(await g.planPurge(bad, ctx())).toEqual({ artifacts: [], refused: [], mentions: [], notes: [] });
    expect(hashTree(st.home)).toEqual(before);
  });
});

describe('grok layouts the fixture does not show', () => {
  it('a long cwd: the hashed slug bucket is read through its .cwd (no blake3 needed)', async () => {
    let ws = join(dir, 'deep');
    while (ws.length < 300) ws = join(ws, 'nested-directory');
    mkdirSync(ws, { recursive: true });
    expect(encodeGrokCwd(ws)).toBeNull();
    const bucket = join(st.grok, 'sessions', 'nested-directory-d57c02c5ec15a4db');
    const id = freshId();
    mkdirSync(join(bucket, id), { recursive: true });
    writeFileSync(join(bucket, '.cwd'), ws);
    writeFileSync(join(bucket, id, 'summary.json'), JSON.stringify({ info: { id, cwd: ws }, updated_at: '2026-09-02T00:00:00Z' }));
    expect(await grok().discover(ctx(ws))).toEqual([id]);
    expect(await grok().verifyArtifact(id, ctx(ws))).toBe(true);
  });

  it('a fork is its own conversation: discovered, and purging its parent leaves it', async () => {
    const fork = freshId();
    const d = join(bucketA(), fork);
    mkdirSync(d);
    writeFileSync(join(d, 'summary.json'), JSON.stringify({ info: { id: fork, cwd: st.wsA }, parent_session_id: a1, session_kind: 'fork', updated_at: '2026-09-01T09:00:00Z' }));
    expect(await grok().discover(ctx())).toEqual([a2, a1, fork]);
    await grok().purgeArtifacts(a1, ctx());
    expect(existsSync(d)).toBe(true);
    expect(await grok().discover(ctx())).toEqual([a2, fork]);
  });

  it('relocation leftovers go with the session: relocations/<id>.json|.lock and a staging copy .<id>.relocating-<nonce>', async () => {
    const reloc = join(st.grok, 'relocations');
    mkdirSync(reloc);
    writeFileSync(join(reloc, `${a1}.json`), '{}');
    writeFileSync(join(reloc, `${a1}.lock`), '');
    const staging = join(st.grok, 'sessions', encodeGrokCwd(st.wsB) ?? 'x', `.${a1}.relocating-n1`);
    mkdirSync(staging);
    writeFileSync(join(staging, 'updates.jsonl'), '{}\n');
    const purged = strs(await grok().purgeArtifacts(a1, ctx()));
    expect(purged).toEqual(expect.arrayContaining([staging, join(reloc, `${a1}.json`), join(reloc, `${a1}.lock`)]));
    expect(strs(await grok().residualArtifacts(a1, ctx()))).toEqual([]);
  });

  it('purge auto of an id grok does not hold resolves to nothing', async () => {
    const r = await new PurgeService({ ports: portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])) }).purge('auto', freshId(), { home: st.home, env: {} });
    expect(r).toEqual({ kind: 'unresolved', agent: null });
  });
});

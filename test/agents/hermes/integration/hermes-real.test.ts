// The Hermes adapter on databases Hermes 0.19.0's own SessionDB wrote (test/fixtures/real/hermes), raw (rows in the
// WAL) and checkpointed, against EXPECTED.json and Hermes' own delete_session (stages 04, 04b) as the oracle.
import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../../src/agents/hermes/hermes-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { PurgeService } from '../../../../src/purge/purge-service.js';
import type { FakeProcess } from '../../../../src/testing/process/fake-process.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { portsWith } from '../../../helpers/adapter-agy-files.js';
import { HERMES_STAGES, type HermesRealStage, IDS, materializeHermesStage } from '../../../helpers/adapter-hermes-real.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';
import { strs } from '../../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-real-'));
});
afterEach(() => dispose());

const LIST = 'list_sessions_rich(cwd_prefix) default [roots+branch children, compression tips projected; ORDER BY started_at DESC]';
const VARIANTS = ['raw', 'checkpointed'] as const;
const hermes = (): HermesAdapter => new HermesAdapter(nodePorts({ env: {} }));

/** What EXPECTED.json says names each id in the checkpointed copy: rows (exact matches) and files named by the id. */
function expectedResidual(s: HermesRealStage, ids: readonly string[]): string[] {
  const out: string[] = [];
  const rows = new Map<string, number>();
  for (const id of ids) {
    const e = s.expected.sessions[id];
    for (const f of e?.files_checkpointed_copy ?? []) if (f.id_in_name) out.push(join(s.hermesHome, f.file));
    for (const r of e?.db_references_checkpointed ?? []) {
      if (r.rows_equal === 0 || (r.table === 'sessions' && r.column !== 'id')) continue;
      rows.set(`${r.table}.${r.column}`, (rows.get(`${r.table}.${r.column}`) ?? 0) + r.rows_equal);
    }
  }
  for (const [col, n] of rows) out.push(`${s.db} (${col}: ${n} rows)`);
  return out.sort();
}

/** The session, message and usage rows, read without touching the database's directory. */
function dumpRows(db: string): Promise<Record<string, unknown[]>> {
  const conn = new Database(`file:${db}?mode=ro`, { readonly: true });
  try {
    const tables = ['sessions', 'messages', 'session_model_usage'];
    return Promise.resolve(Object.fromEntries(tables.map((t) => [t, conn.prepare(`SELECT * FROM ${t} ORDER BY rowid`).all()])));
  } finally {
    conn.close();
  }
}

function fkAndFtsIntact(db: string): void {
  const conn = new Database(db, { readonly: true });
  try {
    expect(conn.prepare('PRAGMA foreign_key_check').all()).toEqual([]);
    for (const fts of ['messages_fts', 'messages_fts_trigram']) conn.prepare(`INSERT INTO ${fts}(${fts}) VALUES ('integrity-check')`);
    expect(conn.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
  } finally {
    conn.close();
  }
}

describe.each(VARIANTS)('hermes on the real state.db (%s copy)', (variant) => {
  it.each(HERMES_STAGES)('%s: discover gives Hermes\' own listing per workspace (compression tips, no delegate child)', async (stage) => {
    const s = materializeHermesStage(stage, dir, variant);
    const h = hermes();
    // Regression (issue 31): the ACP session of stage 05 keeps its cwd only in model_config, and Hermes' cwd listing does
    // not show it; discover offered it all the same (so it could make a capture ambiguous). It is still verified by id
    // in its workspace and purgeable by id.
    expect(await h.discover(s.ctx)).toEqual(s.expected.workspaces.wsA[LIST]);
    expect(await h.discover({ ...s.ctx, workspace: s.wsB })).toEqual(s.expected.workspaces.wsB[LIST]);
    if (stage === '05-uuid-session') expect(await h.verifyArtifact(IDS.acp, s.ctx)).toBe(true);
  });

  it('verify accepts any id of a chain of the workspace, never a delegate child or another workspace\'s id', async () => {
    const s = materializeHermesStage('03-delegate', dir, variant);
    const h = hermes();
    for (const id of [IDS.a1, IDS.a2, IDS.a3_root, IDS.a3_child, IDS.a4]) expect(await h.verifyArtifact(id, s.ctx), id).toBe(true);
    expect(await h.verifyArtifact(IDS.d1, s.ctx)).toBe(false);
    expect(await h.verifyArtifact(IDS.b1, s.ctx)).toBe(false);
    expect(await h.verifyArtifact(IDS.b1, { ...s.ctx, workspace: s.wsB })).toBe(true);
    expect(await h.verifyArtifact(IDS.a3_child, { ...s.ctx, siblingClaimedIds: [IDS.a3_root] }, 'discover')).toBe(false);
    expect(await h.currentId(IDS.a3_root, s.ctx)).toBe(IDS.a3_child);
    expect(await h.currentId(IDS.a1, s.ctx)).toBe(IDS.a1);
    expect(await h.profileOf(IDS.a1, s.ctx)).toBe('default');
  });

  it('a subdirectory cwd is not the workspace', async () => {
    const s = materializeHermesStage('01-two-sessions', dir, variant);
    expect(await hermes().discover({ ...s.ctx, workspace: dir })).toEqual([]);
  });

  it.each([['01-two-sessions', 'a1'], ['01-two-sessions', 'a2'], ['02-compressed', 'b1'], ['05-uuid-session', 'acp']] as const)(
    '%s: residual of %s is exactly what EXPECTED.json records',
    async (stage, label) => {
      const s = materializeHermesStage(stage, dir, variant);
      expect((strs(await hermes().residualArtifacts(IDS[label], s.ctx))).sort()).toEqual(expectedResidual(s, [IDS[label]]));
      expect(await hermes().hasArtifacts(IDS[label], s.ctx)).toBe(true);
    },
  );

  it('the compression chain is one conversation: its residual, then its purge from either id, leave nothing (Hermes orphans the child)', async () => {
    for (const asked of [IDS.a3_root, IDS.a3_child]) {
      const s = materializeHermesStage('02-compressed', join(dir, asked), variant);
      const h = hermes();
      const want = expectedResidual(s, [IDS.a3_root, IDS.a3_child]);
      expect((strs(await h.residualArtifacts(asked, s.ctx))).sort()).toEqual(want);
      const before = await dumpRows(s.db);
      expect((strs(await h.purgeArtifacts(asked, s.ctx))).sort()).toEqual(want);
      expect(strs(await h.residualArtifacts(IDS.a3_root, s.ctx))).toEqual([]);
      expect(strs(await h.residualArtifacts(IDS.a3_child, s.ctx))).toEqual([]);
      const after = await dumpRows(s.db);
      const gone = new Set([IDS.a3_root, IDS.a3_child]);
      expect(after['sessions']).toEqual(before['sessions']?.filter((r) => !gone.has((r as { id: string }).id)));
      expect(after['messages']).toEqual(before['messages']?.filter((r) => !gone.has((r as { session_id: string }).session_id)));
      fkAndFtsIntact(s.db);
      expect(await h.discover(s.ctx)).toEqual([IDS.a2, IDS.a1]);
      const notes = await h.purgeNotes(asked, s.ctx);
      expect(notes).toContain(`${asked}: one conversation across the compression chain ${IDS.a3_root} → ${IDS.a3_child}`);
      // Issue 31: the dead-copy pass checkpoints the WAL a crashed writer left (no process holds it): it holds no deleted text.
      expect(notes.some((n) => n.includes('-wal still holds the deleted text'))).toBe(false);
    }
  });

  it('a delegate parent goes with its child (as Hermes 04b does), with no foreign-key failure', async () => {
    const s = materializeHermesStage('03-delegate', dir, variant);
    const h = hermes();
    const want = expectedResidual(s, [IDS.a4, IDS.d1]);
    expect((strs(await h.purgeArtifacts(IDS.a4, s.ctx))).sort()).toEqual(want);
    expect(strs(await h.residualArtifacts(IDS.a4, s.ctx))).toEqual([]);
    expect(await h.hasArtifacts(IDS.d1, s.ctx)).toBe(false);
    fkAndFtsIntact(s.db);
    // Hermes' own result (04b) keeps exactly the rows this purge keeps.
    const oracle = materializeHermesStage('04b-delete-delegate-parent', join(dir, 'oracle'), variant);
    const ids = (db: string) => dumpRows(db).then((d) => (d['sessions'] ?? []).map((r) => (r as { id: string }).id).sort());
    // (04b follows 04, where Hermes had already deleted a1 and the compression root.)
    expect(await ids(oracle.db)).not.toContain(IDS.a4);
    expect(await ids(oracle.db)).not.toContain(IDS.d1);
    expect(await ids(s.db)).toEqual([IDS.a1, IDS.a2, IDS.b1, IDS.a3_root, IDS.a3_child].sort());
  });

  it('where Hermes\' delete_session leaves session_<id>.json and the orphaned child (stage 04), this purge leaves nothing', async () => {
    const oracle = materializeHermesStage('04-after-hermes-delete', join(dir, 'oracle'), variant);
    const h = hermes();
    // Issue 31: Hermes' own delete also leaves old copies of the deleted rows in state.db's bytes (raw: in its -wal and
    // pages); they are the id's residual too, and a purge by id finishes them.
    const oracleLeft = strs(await h.residualArtifacts(IDS.a1, oracle.ctx));
    expect(oracleLeft.filter((l) => !l.includes('(deleted rows)'))).toEqual([join(oracle.hermesHome, 'sessions', `session_${IDS.a1}.json`)]);
    expect(oracleLeft.filter((l) => l.includes('(deleted rows)'))).toEqual(variant === 'raw' ? [expect.stringMatching(/state\.db \(\(deleted rows\)\.\(old copies in the file\): \d+ rows\)$/)] : []);
    const orphan = await dumpRows(oracle.db).then((d) => (d['sessions'] ?? []).find((r) => (r as { id: string }).id === IDS.a3_child));
    expect(orphan).toMatchObject({ parent_session_id: null });
    const s = materializeHermesStage('02-compressed', join(dir, 'ours'), variant);
    strs(await h.purgeArtifacts(IDS.a1, s.ctx));
    strs(await h.purgeArtifacts(IDS.a3_root, s.ctx));
    for (const id of [IDS.a1, IDS.a3_root, IDS.a3_child]) expect(strs(await h.residualArtifacts(id, s.ctx)), id).toEqual([]);
    expect(readdirSync(join(s.hermesHome, 'sessions'))).toEqual([`session_${IDS.a2}.json`]);
    // The oracle's purge of the leftover snapshot finishes Hermes' job (issue 31: the old copies in state.db's bytes too).
    expect(strs(await h.purgeArtifacts(IDS.a1, oracle.ctx))).toEqual([...oracleLeft.filter((l) => l.includes('(deleted rows)')), join(oracle.hermesHome, 'sessions', `session_${IDS.a1}.json`)]);
    expect(await h.residualArtifacts(IDS.a1, oracle.ctx)).toEqual([]);
  });

  it('secure_delete: the deleted text is not left readable in the checkpointed database by this purge\'s writes', async () => {
    const s = materializeHermesStage('01-two-sessions', dir, variant);
    const marker = Buffer.from('zebra-alpha-marker');
    strs(await hermes().purgeArtifacts(IDS.a1, s.ctx));
    const files = readdirSync(s.hermesHome).filter((f) => f.startsWith('state.db'));
    if (variant === 'checkpointed') {
      expect(files).toEqual(['state.db']);
      expect(readFileSync(s.db).includes(marker)).toBe(false);
    } else {
      // Raw: the copied WAL (a writer's) is kept and not checkpointed; the note says so.
      expect(files).toEqual(['state.db', 'state.db-shm', 'state.db-wal']);
    }
  });

  it('per-session files of every id of the chain, request dumps included; shared files naming an id are mentions', async () => {
    const s = materializeHermesStage('02-compressed', dir, variant);
    const sess = join(s.hermesHome, 'sessions');
    const own = [`${IDS.a3_root}.json`, `${IDS.a3_child}.jsonl`, `request_dump_${IDS.a3_child}_1.json`, `session_${IDS.a3_child}.json`];
    for (const f of own) writeFileSync(join(sess, f), '{}');
    writeFileSync(join(sess, 'sessions.json'), JSON.stringify({ k: IDS.a3_child }));
    writeFileSync(join(sess, `request_dump_${IDS.a1}_1.json`), '{}');
    const conn = new Database(s.db);
    conn.prepare("INSERT INTO gateway_routing VALUES ('', 'agent:main:telegram:dm:1', ?, 1)").run(JSON.stringify({ session_id: IDS.a3_child }));
    conn.close();
    const h = hermes();
    const routing = `${s.db} (gateway_routing.entry_json: 1 rows)`;
    expect(strs(await h.mentions(IDS.a3_root, s.ctx))).toEqual([routing, join(sess, 'sessions.json')]);
    const purged = strs(await h.purgeArtifacts(IDS.a3_root, s.ctx));
    for (const f of own) expect(purged).toContain(join(sess, f));
    expect(existsSync(join(sess, 'sessions.json'))).toBe(true);
    expect(existsSync(join(sess, `request_dump_${IDS.a1}_1.json`))).toBe(true);
    expect(strs(await h.residualArtifacts(IDS.a3_root, s.ctx))).toEqual([]);
    expect(strs(await h.mentions(IDS.a3_root, s.ctx))).toEqual([routing, join(sess, 'sessions.json')]);
  });

  it('planPurge lists the whole conversation (rows, files), changes nothing, and its notes say where and which chain', async () => {
    const s = materializeHermesStage('02-compressed', dir, variant);
    writeFileSync(join(s.hermesHome, 'sessions', `${IDS.a3_child}.jsonl`), '{}');
    const h = hermes();
    const before = readdirSync(s.hermesHome).map((f) => [f, readFileSync(join(s.hermesHome, f === 'sessions' ? 'SOUL.md' : f)).length]);
    const plan = await h.planPurge(IDS.a3_root, s.ctx);
    expect(strs(plan.artifacts).sort()).toEqual([...expectedResidual(s, [IDS.a3_root, IDS.a3_child]), join(s.hermesHome, 'sessions', `${IDS.a3_child}.jsonl`)].sort());
    expect(plan.refused).toEqual([]);
    expect(plan.notes).toContain(`${IDS.a3_root}: found in Hermes profile default (${s.db})`);
    expect(plan.notes.some((n) => n.includes('-wal still holds the deleted text'))).toBe(variant === 'raw');
    expect(readdirSync(s.hermesHome).map((f) => [f, readFileSync(join(s.hermesHome, f === 'sessions' ? 'SOUL.md' : f)).length])).toEqual(before);
  });

  it('a uuid (ACP) session is purged from an upper-case id, FTS tables and triggers being the known layout', async () => {
    const s = materializeHermesStage('05-uuid-session', dir, variant);
    const h = hermes();
    expect((strs(await h.purgeArtifacts(IDS.acp.toUpperCase(), s.ctx))).sort()).toEqual(expectedResidual(s, [IDS.acp]));
    expect(strs(await h.residualArtifacts(IDS.acp, s.ctx))).toEqual([]);
    fkAndFtsIntact(s.db);
  });
});

describe('PurgeService on a real Hermes stage', () => {
  it.each(VARIANTS)('%s: purging a compression root scoped to its workspace removes the whole chain, with the notes', async (variant) => {
    const s = materializeHermesStage('02-compressed', dir, variant);
    const service = new PurgeService({ ports: nodePorts({ env: {} }) });
    const opts = { home: s.ctx.home, env: s.ctx.env, workspace: s.wsA };
    expect(await service.purge('hermes', IDS.b1, opts)).toMatchObject({ kind: 'not-in-workspace' });
    const r = await service.purge('hermes', IDS.a3_root, opts);
    expect(r.kind).toBe('purged');
    if (r.kind !== 'purged') return;
    expect(strs(r.purged).sort()).toEqual(expectedResidual(s, [IDS.a3_root, IDS.a3_child]));
    expect(r.residual).toEqual([]);
    expect(r.notes).toContain(`${IDS.a3_root}: one conversation across the compression chain ${IDS.a3_root} → ${IDS.a3_child}`);
    expect(r.notes.some((n) => n.includes('-wal still holds the deleted text'))).toBe(variant === 'raw');
  });
});

describe('hermes in use on the real stages', () => {
  const init = { pid: 1, argv: ['init'] };
  it('a command line naming any id of the chain or a unique --resume prefix, HERMES_SESSION_ID naming any id; never a holder of state.db', async () => {
    const s = materializeHermesStage('02-compressed', dir, 'checkpointed');
    const inUse = (procs: FakeProcess[], env?: Record<string, string>) =>
      new HermesAdapter(portsWith(new FakeProcessTable([init, ...procs], env === undefined ? {} : { self: { pid: 77, argv: ['node'], env } }))).conversationInUse(IDS.a3_root, s.ctx);
    expect(await inUse([])).toBe(false);
    expect(await inUse([{ pid: 5, ppid: 1, argv: ['hermes', '--resume', IDS.a3_child] }])).toBe(true);
    expect(await inUse([{ pid: 5, ppid: 1, argv: ['hermes', '--resume', IDS.a3_root] }])).toBe(true);
    expect(await inUse([{ pid: 5, ppid: 1, argv: ['hermes', '-r', '20261201_125021'] }])).toBe(true);
    expect(await inUse([{ pid: 5, ppid: 1, argv: ['hermes', '--resume=20261201_12502'] }])).toBe(true);
    // Ambiguous: 20261201_1250 is a prefix of every id.
    expect(await inUse([{ pid: 5, ppid: 1, argv: ['hermes', '--resume', '20261201_1250'] }])).toBe(false);
    expect(await inUse([], { HERMES_SESSION_ID: IDS.a3_child })).toBe(true);
    expect(await inUse([], { HERMES_SESSION_ID: IDS.a1 })).toBe(false);
    expect(await inUse([{ pid: 6, ppid: 1, argv: ['hermes'], openFiles: [s.db, `${s.db}-wal`] }])).toBe(false);
  });

  it('a holder of state.db counts only while the conversation was never closed (its tip has no ended_at: live, or crashed)', async () => {
    const s = materializeHermesStage('05-uuid-session', dir, 'raw');
    const held = (id: string) =>
      new HermesAdapter(portsWith(new FakeProcessTable([init, { pid: 6, ppid: 1, argv: ['hermes', 'acp'], openFiles: [`${s.db}-wal`] }]))).inUseHolders(id, s.ctx);
    expect(await held(IDS.acp)).toEqual([expect.objectContaining({ pid: 6, signal: 'open-file', detail: `${s.db}-wal` })]);
    expect(await held(IDS.a2)).toEqual([]);
  });
});

// A purge must never answer `not-in-workspace` (or `unresolved`) when the truth is "the store could not be read". Seen
// in the real suite: a `mam purge` killed during `opencode session delete`, and the scoped rerun answered
// `not-in-workspace` after ~100 s while something held opencode.db locked: every read of the database failed as busy
// (each after SQLite's 5 s busy wait), the workspace check read as "not of it", and the plan said so. A child process
// here holds the database's write lock while the purge runs (test/helpers/sqlite-lock-holder.ts): the answer is
// `refused`, naming the database and that it is busy, nothing is removed, and it comes within a few seconds; once the
// child lets go, the same scoped purge purges.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PurgeService } from '../../src/purge/purge-service.js';
import { PURGE_EXIT_CODES, type PurgeResult } from '../../src/purge/purge-result.js';
import { hashTree, isDbFile, opencodeStage, type OpencodeStage } from '../helpers/adapter-opencode-stage.js';
import { buildHermesStage, dumpRows, type HermesStage } from '../helpers/adapter-hermes-stage.js';
import { MAM_BIN } from '../helpers/mam-bin.js';
import { holdWriteLock, type LockHolder } from '../helpers/sqlite-lock-holder.js';

// Well under the ~100 s seen, and under one of SQLite's default 5 s busy waits per read of the plan.
const FEW_SECONDS_MS = 8_000;

let root: string;
let holder: LockHolder | undefined;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-busy-')));
});
afterEach(async () => {
  await holder?.release();
  holder = undefined;
  rmSync(root, { recursive: true, force: true });
});

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t };
}

function expectRefusedBusy(r: PurgeResult, db: string): void {
  expect(r.kind, JSON.stringify(r)).toBe('refused');
  if (r.kind !== 'refused') return;
  expect(r.reason).toContain(db);
  expect(r.reason).toMatch(/busy/);
  expect(r.reason).not.toMatch(/is not one of workspace/);
}

describe('OpenCode: a database another process holds locked', () => {
  // ses_dd6159fa… is the session of ws-opencode2 in the real 1.18.33 capture.
  const ID = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX';
  let s: OpencodeStage;
  let ws: string;
  beforeEach(() => {
    s = opencodeStage('opencode/03-two-sessions-before-delete', root);
    ws = join(root, 'ws-opencode2');
  });
  // The holder is what OpenCode's per-user service looks like (`opencode serve --service`, not on the agent PATH): a
  // holder the in-use probe does not count, so the plan reads on to the workspace check.
  const lock = async (): Promise<LockHolder> =>
    (holder = await holdWriteLock(s.db, { dir: join(root, 'service'), name: 'opencode', args: ['serve', '--service'], write: "UPDATE session SET title = title || ' (edited)'" }));
  const scoped = (): { home: string; workspace: string; env: Record<string, string> } => ({ home: s.home, workspace: ws, env: s.ctx(ws).env as Record<string, string> });

  it('a scoped purge is refused naming the busy database, removes nothing, answers within a few seconds; once released it purges', async () => {
    const rows = await dumpRows(s.db);
    const files = hashTree(s.home, isDbFile);
    await lock();
    const svc = new PurgeService();
    const { value: r, ms } = await timed(() => svc.purge('opencode', ID, scoped()));
    expectRefusedBusy(r, s.db);
    expect(ms).toBeLessThan(FEW_SECONDS_MS);
    expect(hashTree(s.home, isDbFile)).toEqual(files);
    await holder?.release();
    expect(await dumpRows(s.db)).toEqual(rows);
    const again = await svc.purge('opencode', ID, scoped());
    expect(again).toMatchObject({ kind: 'purged', residual: [] });
  });

  it('an unscoped plan (named agent, and auto) is refused naming the database, never unresolved, within a few seconds', async () => {
    await lock();
    const svc = new PurgeService();
    for (const agent of ['opencode', 'auto'] as const) {
      const { value: plan, ms } = await timed(() => svc.plan(agent, ID, { home: s.home, env: s.ctx(ws).env as Record<string, string> }));
      expect(plan.verdict, `${agent}: ${plan.reason}`).toBe('refused');
      expect(plan.reason).toContain(s.db);
      expect(plan.reason).toMatch(/busy/);
      expect(ms).toBeLessThan(FEW_SECONDS_MS);
    }
  });

  it('mam purge --workspace … --json exits with the refusal code and says refused', async () => {
    await lock();
    const env: Record<string, string | undefined> = { ...process.env, ...s.env, PATH: '/usr/bin:/bin' };
    for (const k of Object.keys(env)) if (/SESSION_ID|CONVERSATION_ID|CODEX_THREAD_ID|OPENCODE_PID/.test(k)) delete env[k];
    const t = Date.now();
    const r = spawnSync(process.execPath, [MAM_BIN, 'purge', 'opencode', ID, '--workspace', ws, '--home', s.home, '--json'], { encoding: 'utf8', env });
    const ms = Date.now() - t;
    expect(r.status, r.stderr).toBe(PURGE_EXIT_CODES.refused);
    const out = JSON.parse(r.stdout) as { kind: string; reason: string };
    expect(out.kind).toBe('refused');
    expect(out.reason).toContain(s.db);
    expect(out.reason).toMatch(/busy/);
    // The node start and the build's own imports on top of the plan.
    expect(ms).toBeLessThan(FEW_SECONDS_MS + 4_000);
  });
});

describe('Hermes: a state.db another process holds locked', () => {
  let h: HermesStage;
  beforeEach(async () => {
    h = await buildHermesStage(root, 'clean');
  });
  const lock = async (): Promise<LockHolder> => (holder = await holdWriteLock(h.db, { dir: join(root, 'holder'), name: 'state-db-writer', write: "UPDATE sessions SET title = title || ' (edited)'" }));

  it('a scoped purge is refused naming the busy database, removes nothing, answers within a few seconds; once released it purges', async () => {
    const session = h.sessions[0];
    if (session === undefined) throw new Error('no session staged');
    const rows = await dumpRows(h.db);
    await lock();
    const svc = new PurgeService();
    const opts = { home: h.home, workspace: session.workspace, env: { HOME: h.home } };
    const { value: r, ms } = await timed(() => svc.purge('hermes', session.id, opts));
    expectRefusedBusy(r, h.db);
    expect(ms).toBeLessThan(FEW_SECONDS_MS);
    await holder?.release();
    expect(await dumpRows(h.db)).toEqual(rows);
    const again = await svc.purge('hermes', session.id, opts);
    expect(again).toMatchObject({ kind: 'purged', residual: [] });
  });

  it('an unscoped plan is refused naming the database, never unresolved', async () => {
    const session = h.sessions[0];
    if (session === undefined) throw new Error('no session staged');
    await lock();
    const svc = new PurgeService();
    for (const agent of ['hermes', 'auto'] as const) {
      const { value: plan, ms } = await timed(() => svc.plan(agent, session.id, { home: h.home, env: { HOME: h.home } }));
      expect(plan.verdict, `${agent}: ${plan.reason}`).toBe('refused');
      expect(plan.reason).toContain(h.db);
      expect(plan.reason).toMatch(/busy/);
      expect(ms).toBeLessThan(FEW_SECONDS_MS);
    }
  });
});

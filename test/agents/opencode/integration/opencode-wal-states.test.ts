// The read-only rule for every opencode query, in the four WAL states and in the real stages' captured "mixed" state:
// the database's directory listing (names, sizes, mtimes, inodes) never changes, and rows only in -wal are seen.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentAdapter, HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { SessionRow } from '../../../../src/registry/session-row.js';
import { sesId, v1Schema, v1SessionSql, V2_SCHEMA, v2SessionSql } from '../../../helpers/adapter-opencode-db.js';
import { idsInMainFileAlone, mixedState, opencodeStage } from '../../../helpers/adapter-opencode-stage.js';
import { buildWalState, snapshotDir, WAL_STATES, type WalFixture } from '../../../helpers/sqlite-wal-states.js';
import { strs } from '../../../helpers/artifact-strings.js';
import type { Artifact } from '../../../../src/purge/artifact.js';

const adapter = new OpencodeAdapter(nodePorts());
let root: string;
let n = 0;
const fixtures: WalFixture[] = [];
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-wal-')));
});
afterEach(async () => {
  await Promise.all(fixtures.splice(0).map((f) => f.stop()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const A = sesId(30);
const B = sesId(20);
const CHILD = sesId(40);
const T = 1_796_000_000_000;

type Layout = 'v1' | 'v2' | 'migrated';
function sqlFor(layout: Layout, ws: string, other: string): string[] {
  const v1 = [...v1Schema(), ...v1SessionSql({ id: A, directory: ws, created: T }), ...v1SessionSql({ id: B, directory: other, created: T + 5 }), ...v1SessionSql({ id: CHILD, directory: ws, created: T + 9, parent: A })];
  const v2 = [...V2_SCHEMA, ...v2SessionSql({ id: A, directory: ws, created: T }), ...v2SessionSql({ id: B, directory: other, created: T + 5 }), ...v2SessionSql({ id: CHILD, directory: ws, created: T + 9, parent: A })];
  return ['PRAGMA foreign_keys = OFF', ...(layout === 'v1' ? v1 : layout === 'v2' ? v2 : [...v1, ...v2])];
}

type Query = (a: AgentAdapter, ctx: HomeDiscoveryContext) => Promise<unknown>;
const row: SessionRow = { name: 'oc', status: 'running', agent: 'opencode', herdr_session_epoch: T / 1000 - 60 };
const QUERIES: Record<string, [Query, (v: unknown) => void]> = {
  discover: [(a, c) => a.discover(c), (v) => expect(v).toEqual([A])],
  verify: [async (a, c) => [await a.verifyArtifact(A, c), await a.verifyArtifact(CHILD, c), await a.verifyArtifact(B, c)], (v) => expect(v).toEqual([true, false, false])],
  residual: [(a, c) => a.residualArtifacts(A, c), (v) => expect(strs(v as Artifact[]).some((l) => / \((session|session_v2)\.id: 1 rows\)$/.test(l))).toBe(true)],
  capture: [(a, c) => a.captureActiveSessionId(row, c), (v) => expect(v).toEqual({ kind: 'captured', id: A })],
  hasArtifacts: [async (a, c) => [await a.hasArtifacts(A, c), await a.hasArtifacts(sesId(99), c)], (v) => expect(v).toEqual([true, false])],
};

describe.each(['v1', 'v2', 'migrated'] as const)('%s layout', (layout) => {
  describe.each(WAL_STATES)('%s state', (state) => {
    it.each(Object.keys(QUERIES))('%s reads right and leaves the directory as it was', async (q) => {
      const base = join(root, `s${n++}`);
      const home = join(base, 'home');
      const ws = join(base, 'ws');
      const dataDir = join(home, '.local/share/opencode');
      mkdirSync(dataDir, { recursive: true });
      mkdirSync(ws);
      mkdirSync(join(base, 'bin'));
      const fx = await buildWalState(state, join(dataDir, 'opencode.db'), sqlFor(layout, ws, join(base, 'other')));
      fixtures.push(fx);
      const before = snapshotDir(dataDir);
      expect(before.map((l) => l.split(' ')[0])).toEqual(fx.names);
      const [run, check] = QUERIES[q] as [Query, (v: unknown) => void];
      check(await run(adapter, { workspace: ws, home: home, env: { HOME: home, PATH: join(base, 'bin') } }));
      expect(snapshotDir(dataDir)).toEqual(before);
    });
  });
});

describe('the real stages in their captured mixed state (older checkpoint in the main file, newer commits only in -wal)', () => {
  it.each(['leftover', 'walonly'] as const)('06-after-tui (%s): the TUI session that lives only in -wal is discovered, listing unchanged', async (state) => {
    const s = opencodeStage('opencode/06-after-tui', join(root, `m${n++}`));
    const tui = 'ses_dd60eb913ffet4MKQWcgE6E3Sy';
    const older = 'ses_dd615360cffeFzbK9W1oQVbVv9';
    fixtures.push(await mixedState(s, { onlyInWal: [tui], state }));
    expect(idsInMainFileAlone(s.db, s.root)).not.toContain(tui);
    const dataDir = join(s.db, '..');
    const before = snapshotDir(dataDir);
    const ctx = s.ctx(join(s.root, 'ws-opencode'));
    expect(await adapter.discover(ctx)).toEqual([tui, older]);
    expect(await adapter.verifyArtifact(tui, ctx)).toBe(true);
    expect(await adapter.hasArtifacts(tui, ctx)).toBe(true);
    expect(strs(await adapter.residualArtifacts(tui, ctx))).toContain(`${s.db} (session.id: 1 rows)`);
    expect(snapshotDir(dataDir)).toEqual(before);
  });

  it('02-after-session-delete: a session deleted only in -wal is gone, though the main file alone still holds it', async () => {
    const s = opencodeStage('opencode/02-after-session-delete', join(root, `m${n++}`));
    const deleted = 'ses_dd6173a32ffevKozQXxkNptbCH';
    const ws = join(s.root, 'ws-opencode');
    fixtures.push(await mixedState(s, { deletedInWal: [deleted], deletedDir: ws }));
    expect(idsInMainFileAlone(s.db, s.root)).toContain(deleted);
    const dataDir = join(s.db, '..');
    const before = snapshotDir(dataDir);
    const ctx = s.ctx(ws);
    expect(await adapter.discover(ctx)).toEqual([]);
    expect(await adapter.verifyArtifact(deleted, ctx)).toBe(false);
    // Issue 31: the main file still holds its bytes (superseded by the -wal): they are the id's artifact, which a purge
    // finishes, never "unresolved" while they remain.
    expect(await adapter.hasArtifacts(deleted, ctx)).toBe(true);
    expect(strs(await adapter.residualArtifacts(deleted, ctx))).toEqual([expect.stringMatching(/opencode\.db \(\(deleted rows\)\.\(old copies in the file\): \d+ rows\)$/)]);
    expect(await adapter.discover(s.ctx(join(s.root, 'ws-opencode2')))).toEqual(['ses_dd6159fa8ffeNLy5GqcBDiUnlX']);
    expect(snapshotDir(dataDir)).toEqual(before);
  });

  it('06-after-tui (leftover): a purge of the -wal-only session removes its rows and keeps the other session', async () => {
    const s = opencodeStage('opencode/06-after-tui', join(root, `m${n++}`));
    const tui = 'ses_dd60eb913ffet4MKQWcgE6E3Sy';
    fixtures.push(await mixedState(s, { onlyInWal: [tui] }));
    const ctx = s.ctx(join(s.root, 'ws-opencode'));
    const purged = strs(await adapter.purgeArtifacts(tui, ctx));
    expect(purged).toContain(`${s.db} (session.id: 1 rows)`);
    expect(strs(await adapter.residualArtifacts(tui, ctx))).toEqual([]);
    expect(await adapter.discover(ctx)).toEqual(['ses_dd615360cffeFzbK9W1oQVbVv9']);
  });
});

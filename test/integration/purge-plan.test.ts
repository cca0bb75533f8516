// PurgeService.plan / execute / purge({ dryRun }) on real temp homes built from the real fixtures: a plan changes
// nothing (tree snapshot with mtimes, WAL state of a real Codex and OpenCode database kept), execute removes exactly the
// planned artifacts, and refuses — removing nothing — when the disk no longer matches.
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { formatArtifact } from '../../src/purge/artifact.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { purgeExitCode } from '../../src/purge/purge-result.js';
import { detectWalState } from '../../src/sqlite/wal-state.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { walStage } from '../helpers/adapter-codex-crash.js';
import { mixedState, opencodeStage } from '../helpers/adapter-opencode-stage.js';
import { strs } from '../helpers/artifact-strings.js';
import { type ExpectedConversation, materializeStage, type RealStage } from '../helpers/real-stage.js';
import { treeSnapshot } from '../helpers/tree-snapshot.js';

const fs = new NodeFileSystem();
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function tempRoot(): string {
  const r = mkdtempSync(join(tmpdir(), 'mam-purge-plan-'));
  roots.push(r);
  return r;
}

// A service whose process table is a fake (no live holder unless given): plans depend on the disk alone.
function service(procs: ConstructorParameters<typeof FakeProcessTable>[0] = []): PurgeService {
  return new PurgeService({ ports: { fs, proc: new FakeProcessTable(procs), herdr: new FakeHerdr(), clock: new NodeClock() } });
}

const CODEX_ID = '01a229f2-dd9f-7f71-b03f-29e4937c4596';

function codexStage(): { s: RealStage; conv: ExpectedConversation } {
  const s = materializeStage('codex/06-after-sigkill', tempRoot());
  return { s, conv: s.expected.conversations.find((c) => c.id === CODEX_ID) as ExpectedConversation };
}

function expectedCodex(s: RealStage, conv: ExpectedConversation): string[] {
  const rows = conv.db_rows.filter((r) => r.exact_matches > 0).map((r) => `${s.abs(r.db)} (${r.table}.${r.column}: ${r.exact_matches} rows)`);
  return [...conv.files.map((f) => s.abs(f.replace(/\/$/, ''))), ...rows].sort();
}

describe('PurgeService.plan changes nothing', () => {
  it('codex (real crash state: every row only in -wal): lists every file and row, and leaves the tree and the WAL state as they were', async () => {
    const { s, conv } = codexStage();
    const writers = await walStage(s, join(s.root, 'scratch'));
    await Promise.all(writers.map((w) => w.stop()));
    const state = s.abs('.codex/state_5.sqlite');
    expect(await detectWalState(fs, state)).toBe('leftover');
    const before = treeSnapshot(s.home);
    const plan = await service().plan('auto', CODEX_ID, { home: s.home, env: s.env });
    expect(plan).toMatchObject({ agent: 'codex', id: CODEX_ID, verdict: 'purge', refused: [], holders: [], otherAgents: [] });
    expect(strs(plan.artifacts).sort()).toEqual(expectedCodex(s, conv));
    expect(plan.artifacts.filter((a) => a.kind !== 'rows').every((a) => a.kind === 'file')).toBe(true);
    expect(treeSnapshot(s.home)).toEqual(before);
    expect(await detectWalState(fs, state)).toBe('leftover');
    // The dry run is the same plan and changes nothing either.
    const dry = await service().purge('auto', CODEX_ID, { home: s.home, env: s.env, dryRun: true });
    expect(dry.kind === 'dry-run' && strs(dry.plan.artifacts).sort()).toEqual(expectedCodex(s, conv));
    expect(purgeExitCode(dry)).toBe(0);
    expect(treeSnapshot(s.home)).toEqual(before);
  });

  it('opencode (real stage, database in the leftover state): lists the session rows, tree and WAL state unchanged', async () => {
    const s = opencodeStage('opencode/03-two-sessions-before-delete', tempRoot());
    const id = 'ses_dd615360cffeFzbK9W1oQVbVv9';
    // The session's rows live only in -wal (a killed writer): the plan must read them there without touching a sidecar.
    const fx = await mixedState(s, { onlyInWal: [id] });
    await fx.stop();
    expect(await detectWalState(fs, s.db)).toBe('leftover');
    const env = s.ctx(s.home).env ?? {};
    const before = treeSnapshot(s.home);
    const plan = await service().plan('opencode', id, { home: s.home, env });
    expect(plan.verdict).toBe('purge');
    expect(plan.artifacts.length).toBeGreaterThan(0);
    expect(plan.artifacts.every((a) => a.kind === 'rows' && a.db === s.db)).toBe(true);
    expect(strs(plan.artifacts)).toContain(`${s.db} (session.id: 1 rows)`);
    expect(treeSnapshot(s.home)).toEqual(before);
    expect(await detectWalState(fs, s.db)).toBe('leftover');
  });
});

describe('PurgeService.execute', () => {
  it('removes exactly the planned artifacts (codex real stage)', async () => {
    const { s, conv } = codexStage();
    const svc = service();
    const plan = await svc.plan('codex', CODEX_ID, { home: s.home, env: s.env });
    const result = await svc.execute(plan);
    expect(result.kind).toBe('purged');
    if (result.kind !== 'purged') return;
    expect(strs(result.purged).sort()).toEqual(strs(plan.artifacts).sort());
    expect(strs(result.purged).sort()).toEqual(expectedCodex(s, conv));
    expect(result.residual).toEqual([]);
    for (const f of conv.files) expect(existsSync(s.abs(f)), f).toBe(false);
  });

  it('refuses, removing nothing, when an artifact appeared after the plan (a new shell snapshot)', async () => {
    const { s } = codexStage();
    const svc = service();
    const plan = await svc.plan('codex', CODEX_ID, { home: s.home, env: s.env });
    const extra = s.abs(`.codex/shell_snapshots/${CODEX_ID}.1795999999.sh`);
    mkdirSync(join(extra, '..'), { recursive: true });
    writeFileSync(extra, 'export SECRET=1\n');
    const before = treeSnapshot(s.home);
    const result = await svc.execute(plan);
    expect(result).toMatchObject({ kind: 'changed', agent: 'codex', inUse: false });
    expect(result.kind === 'changed' && result.changes).toContainEqual({ change: 'new', artifact: { kind: 'file', path: extra } });
    expect(purgeExitCode(result)).toBe(6);
    expect(treeSnapshot(s.home)).toEqual(before);
  });

  it('refuses, removing nothing, when a planned file became a link (and never touches its target)', async () => {
    const { s, conv } = codexStage();
    const svc = service();
    const plan = await svc.plan('codex', CODEX_ID, { home: s.home, env: s.env });
    const rollout = s.abs(conv.files.find((f) => f.includes('rollout-')) as string);
    const precious = join(s.root, 'precious.jsonl');
    writeFileSync(precious, 'keep');
    unlinkSync(rollout);
    symlinkSync(precious, rollout);
    const before = treeSnapshot(s.home);
    const result = await svc.execute(plan);
    expect(result.kind).toBe('changed');
    expect(result.kind === 'changed' && result.changes).toContainEqual({ change: 'became-link', artifact: { kind: 'link', path: rollout }, planned: { kind: 'file', path: rollout } });
    expect(treeSnapshot(s.home)).toEqual(before);
    expect(readFileSync(precious, 'utf8')).toBe('keep');
  });

  it('re-runs the in-use gate: a holder that appeared after the plan refuses the purge, removing nothing', async () => {
    const { s } = codexStage();
    const plan = await service().plan('codex', CODEX_ID, { home: s.home, env: s.env });
    expect(plan.verdict).toBe('purge');
    const before = treeSnapshot(s.home);
    const result = await service([{ pid: 4242, argv: ['codex', 'resume', CODEX_ID] }]).execute(plan);
    expect(result).toMatchObject({ kind: 'in-use', agent: 'codex', holders: [{ pid: 4242, signal: 'command-line' }], inUse: true });
    expect(treeSnapshot(s.home)).toEqual(before);
  });

  it('a plan made while in use says it would be refused and why, with the holders', async () => {
    const { s } = codexStage();
    const plan = await service([{ pid: 4242, argv: ['codex', 'resume', CODEX_ID] }]).plan('codex', CODEX_ID, { home: s.home, env: s.env });
    expect(plan).toMatchObject({ verdict: 'in-use', holders: [{ pid: 4242, command: expect.stringContaining(CODEX_ID), signal: 'command-line' }] });
    expect(plan.reason).toMatch(/in use by pid 4242/);
    expect(plan.hints.length).toBeGreaterThan(0);
    expect(plan.artifacts.length).toBeGreaterThan(0);
  });

  it('a hard-linked database is refused up front: the plan says so and execute removes nothing', async () => {
    const { s, conv } = codexStage();
    const state = s.abs('.codex/state_5.sqlite');
    linkSync(state, join(s.root, 'state-twin.sqlite'));
    const svc = service();
    const plan = await svc.plan('codex', CODEX_ID, { home: s.home, env: s.env });
    expect(plan.verdict).toBe('refused');
    expect(plan.refused).toContainEqual(expect.objectContaining({ kind: 'rows', db: state, table: 'threads', reason: expect.stringMatching(/hard links/) }));
    expect(plan.artifacts.some((a) => a.kind === 'rows' && a.db === state)).toBe(false);
    const before = treeSnapshot(s.home);
    const result = await svc.execute(plan);
    expect(result).toMatchObject({ kind: 'refused', agent: 'codex' });
    expect(purgeExitCode(result)).toBe(6);
    expect(treeSnapshot(s.home)).toEqual(before);
    for (const f of conv.files) expect(existsSync(s.abs(f)), f).toBe(true);
  });
});

describe('honest outcomes', () => {
  it('a named agent with no artifact of the id is unresolved (exit 5), not a false success', async () => {
    const { s } = codexStage();
    const claudeId = '0b5c2c7e-6f9f-4d6a-9a57-1f0f7f2e3c11';
    const before = treeSnapshot(s.home);
    const r = await service().purge('codex', claudeId, { home: s.home, env: s.env });
    expect(r).toEqual({ kind: 'unresolved', agent: null });
    expect(purgeExitCode(r)).toBe(5);
    // An id only another agent has: codex has nothing of it either.
    mkdirSync(join(s.home, '.claude', 'projects', '-w'), { recursive: true });
    writeFileSync(join(s.home, '.claude', 'projects', '-w', `${claudeId}.jsonl`), '{}\n');
    expect(await service().purge('codex', claudeId, { home: s.home, env: s.env })).toEqual({ kind: 'unresolved', agent: null });
    expect(existsSync(join(s.home, '.claude', 'projects', '-w', `${claudeId}.jsonl`))).toBe(true);
    expect(treeSnapshot(join(s.home, '.codex'))).toEqual(before.filter((l) => l.startsWith('.codex/')).map((l) => l.slice('.codex/'.length)));
  });

  it('auto with one uuid under two agents (claude and agy): purges the first, reports the other\'s artifacts and leaves them', async () => {
    const home = tempRoot();
    const id = '6f1c8a52-1d4e-4b8a-9d3c-2a7e5b9c0d11';
    const transcript = join(home, '.claude', 'projects', '-w', `${id}.jsonl`);
    mkdirSync(join(transcript, '..'), { recursive: true });
    writeFileSync(transcript, '{}\n');
    const agyWal = join(home, '.gemini', 'antigravity-cli', 'conversations', `${id}.db-wal`);
    mkdirSync(join(agyWal, '..'), { recursive: true });
    writeFileSync(agyWal, 'x');
    const plan = await service().plan('auto', id, { home });
    expect(plan).toMatchObject({ agent: 'claude', verdict: 'purge', otherAgents: [{ agent: 'agy', artifacts: [{ kind: 'file', path: agyWal }] }] });
    const r = await service().purge('auto', id, { home });
    expect(r).toMatchObject({ kind: 'purged', agent: 'claude', purged: [{ kind: 'file', path: transcript }], otherAgents: [{ agent: 'agy', artifacts: [{ kind: 'file', path: agyWal }] }] });
    expect(existsSync(transcript)).toBe(false);
    expect(existsSync(agyWal)).toBe(true);
    // Named, the other agent's artifacts go.
    expect(await service().purge('agy', id, { home })).toMatchObject({ kind: 'purged', agent: 'agy', purged: [{ kind: 'file', path: agyWal }] });
  });

  it('workspace scopes: a conversation of another workspace is refused as not-in-workspace, removing nothing', async () => {
    const { s, conv } = codexStage();
    const other = join(s.root, 'ws-codex2');
    const before = treeSnapshot(s.home);
    const r = await service().purge('codex', CODEX_ID, { home: s.home, env: s.env, workspace: other });
    expect(r).toMatchObject({ kind: 'not-in-workspace', agent: 'codex', workspace: other, inUse: false });
    expect(purgeExitCode(r)).toBe(6);
    expect(treeSnapshot(s.home)).toEqual(before);
    const own = await service().purge('codex', CODEX_ID, { home: s.home, env: s.env, workspace: conv.workspace as string });
    expect(own.kind).toBe('purged');
  });

  it('formatArtifact keeps the reference strings for the CLI', async () => {
    const { s } = codexStage();
    const plan = await service().plan('codex', CODEX_ID, { home: s.home, env: s.env });
    const rows = plan.artifacts.find((a) => a.kind === 'rows' && a.table === 'threads');
    expect(rows && formatArtifact(rows)).toBe(`${s.abs('.codex/state_5.sqlite')} (threads.id: 1 rows)`);
  });
});

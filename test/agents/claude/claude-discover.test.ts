import { mkdirSync, symlinkSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { PurgeService } from '../../../src/purge/purge-service.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeTranscript } from '../../helpers/adapter-claude-sandbox.js';

const claude = new ClaudeAdapter(nodePorts());
let sb: ClaudeSandbox;

beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

describe('ClaudeAdapter.discover / verifyArtifact', () => {
  it('is a pre-assigned agent exporting CLAUDE_CODE_SESSION_ID', () => {
    expect([claude.name, claude.ownKey, claude.idLifecycle, claude.sessionEnvVar]).toEqual(['claude', 'claude_session_id_own', 'pre_assigned', 'CLAUDE_CODE_SESSION_ID']);
  });

  it('finds the workspace\'s transcripts newest start first, not the file mtime', async () => {
    const [old, mid, neu] = [freshId(), freshId(), freshId()];
    writeTranscript(sb, mid, { start: '2026-11-30T01:00:00.000Z' });
    const p = writeTranscript(sb, old, { start: '2026-11-30T00:00:00.000Z' });
    writeTranscript(sb, neu, { start: '2026-11-30T02:00:00.000Z' });
    utimesSync(p, new Date('2030-01-01'), new Date('2030-01-01'));
    expect(await claude.discover(sb.ctx())).toEqual([neu, mid, old]);
    for (const id of [old, mid, neu]) expect(await claude.verifyArtifact(id, sb.ctx())).toBe(true);
  });

  it('keeps only conversations started at or after the epoch', async () => {
    const [a, b] = [freshId(), freshId()];
    writeTranscript(sb, a, { start: '2026-11-30T00:00:00.000Z' });
    writeTranscript(sb, b, { start: '2026-11-30T00:00:10.000Z' });
    const epoch = Date.parse('2026-11-30T00:00:10.000Z') / 1000;
    expect(await claude.discover(sb.ctx({ epoch }))).toEqual([b]);
    expect(await claude.discover(sb.ctx({ epoch: epoch + 1 }))).toEqual([]);
  });

  it('never offers an id another row records (either spelling); verify in discover mode rejects it too', async () => {
    const [a, b] = [freshId(), freshId()];
    writeTranscript(sb, a);
    writeTranscript(sb, b);
    const ctx = sb.ctx({ siblingClaimedIds: [a.toUpperCase()] });
    expect(await claude.discover(ctx)).toEqual([b]);
    expect(await claude.verifyArtifact(a, ctx, 'discover')).toBe(false);
    expect(await claude.verifyArtifact(a, ctx, 'verify')).toBe(true);
  });

  it('the key is lossy: a transcript of `/x/b-c` in the key dir of `/x/b/c` is not that workspace\'s', async () => {
    const lossy = join(sb.root, 'ws', 'b', 'c');
    const other = join(sb.root, 'ws', 'b-c');
    mkdirSync(lossy, { recursive: true });
    mkdirSync(other, { recursive: true });
    expect(claudeProjectKey(lossy)).toBe(claudeProjectKey(other));
    const [mine, theirs] = [freshId(), freshId()];
    writeTranscript(sb, mine, { cwd: lossy, key: claudeProjectKey(lossy) });
    writeTranscript(sb, theirs, { cwd: other, key: claudeProjectKey(lossy) });
    expect(await claude.discover(sb.ctx({ workspace: lossy }))).toEqual([mine]);
    expect(await claude.discover(sb.ctx({ workspace: other }))).toEqual([theirs]);
    expect(await claude.verifyArtifact(theirs, sb.ctx({ workspace: lossy }))).toBe(false);
  });

  it('a workspace reached through a link finds the transcripts Claude recorded under its realpath', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    const link = join(sb.root, 'ws-link');
    symlinkSync(sb.ws, link);
    expect(await claude.discover(sb.ctx({ workspace: link }))).toEqual([id]);
    expect(await claude.verifyArtifact(id.toUpperCase(), sb.ctx({ workspace: link }))).toBe(true);
  });

  // Regression (issue 31): a transcript recording no cwd (the CLI killed before its first turn) sits in the key dir shared
  // by every workspace whose path maps to that key (`/r/a.b`, `/r/a-b`, `/r/a b`); a purge scoped to one of them accepted
  // it although nothing says it belongs there. It is no workspace's now: never offered, never verified; an unscoped purge
  // by id still finds it.
  it('a transcript recording no cwd is not accepted by a workspace-scoped purge or discovery of any workspace sharing its key dir', async () => {
    const id = freshId();
    const spellings = ['a.b', 'a-b', 'a b'].map((n) => join(sb.root, 'r', n));
    for (const w of spellings) mkdirSync(w, { recursive: true });
    const key = claudeProjectKey(spellings[0]!);
    expect(new Set(spellings.map((w) => claudeProjectKey(w)))).toEqual(new Set([key]));
    writeTranscript(sb, id, { cwd: null, key });
    for (const w of spellings) {
      expect(await claude.discover(sb.ctx({ workspace: w }))).toEqual([]);
      expect(await claude.verifyArtifact(id, sb.ctx({ workspace: w }), 'verify')).toBe(false);
      expect(await claude.verifyArtifact(id, sb.ctx({ workspace: w }), 'discover')).toBe(false);
      expect(await claude.verifyMany([{ id }], sb.ctx({ workspace: w }))).toEqual([false]);
      const scoped = await new PurgeService().plan('claude', id, { home: sb.home, workspace: w, env: sb.ctx().env ?? {} });
      expect(scoped.verdict).toBe('not-in-workspace');
    }
    const unscoped = await new PurgeService().plan('claude', id, { home: sb.home, env: sb.ctx().env ?? {} });
    expect(unscoped.verdict).toBe('purge');
  });

  it('rejects implausible ids, other workspaces\' ids and missing ones', async () => {
    const id = freshId();
    const elsewhere = join(sb.root, 'elsewhere');
    mkdirSync(elsewhere);
    writeTranscript(sb, id, { cwd: elsewhere, key: claudeProjectKey(elsewhere) });
    expect(await claude.verifyArtifact(id, sb.ctx())).toBe(false);
    expect(await claude.verifyArtifact(id, sb.ctx({ workspace: elsewhere }))).toBe(true);
    for (const bad of ['memory', 'notes', '../x', '/etc', '', `${id}\0`, 'ses_0123456789abABCDEFGHIJKLMN']) {
      expect(await claude.verifyArtifact(bad, sb.ctx())).toBe(false);
    }
  });

  it('follows CLAUDE_CONFIG_DIR, and an explicit CLAUDE_PROJECT_DIR store', async () => {
    const cfg = join(sb.root, 'cfg');
    const [a, b] = [freshId(), freshId()];
    writeTranscript(sb, a, { projects: join(cfg, 'projects') });
    writeTranscript(sb, b, { projects: join(sb.root, 'store') });
    expect(await claude.discover(sb.ctx())).toEqual([]);
    expect(await claude.discover(sb.ctx({ env: { ...sb.env, CLAUDE_CONFIG_DIR: cfg } }))).toEqual([a]);
    expect(await claude.discover(sb.ctx({ env: { ...sb.env, CLAUDE_PROJECT_DIR: join(sb.root, 'store') } }))).toEqual([b]);
    // Inside a Claude session the variable is Claude's own (the project), not a store.
    expect(await claude.discover(sb.ctx({ env: { ...sb.env, CLAUDE_PROJECT_DIR: join(sb.root, 'store'), CLAUDECODE: '1' } }))).toEqual([]);
  });

  it('captures the one new conversation of the row, and says why not otherwise', async () => {
    const [a, b] = [freshId(), freshId()];
    writeTranscript(sb, a, { start: '2026-11-30T00:00:00.000Z' });
    const row = { name: 's', status: 'running' as const, agent: 'claude' as const, herdr_session_epoch: Date.parse('2026-11-30T00:00:05.000Z') / 1000 };
    expect(await claude.captureActiveSessionId(row, sb.ctx())).toEqual({ kind: 'none', reason: 'not-newer', candidates: [a] });
    writeTranscript(sb, b, { start: '2026-11-30T00:00:06.000Z' });
    expect(await claude.captureActiveSessionId(row, sb.ctx())).toEqual({ kind: 'captured', id: b });
    expect(await claude.captureActiveSessionId(row, sb.ctx({ siblingClaimedIds: [b] }))).toMatchObject({ kind: 'none', reason: 'not-newer' });
  });
});

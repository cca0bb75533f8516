import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { RecordingFileSystem } from '../../../src/testing/fs/index.js';
import { withOverrides } from '../../helpers/fs-overrides.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { NodeClock } from '../../../src/node/node-clock.js';
import type { FileSystemPort } from '../../../src/ports/fs.js';
import type { Ports } from '../../../src/ports/index.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import {
  type ClaudeSandbox,
  freshId,
  makeClaudeSandbox,
  treeDigest,
  writeConversationArtifacts,
  writeJobDir,
  writeSessionFile,
  writeTranscript,
} from '../../helpers/adapter-claude-sandbox.js';
import { strs } from '../../helpers/artifact-strings.js';

let sb: ClaudeSandbox;
const NOW = Date.now();

function adapter(proc = new FakeProcessTable([], { self: { pid: 9000, argv: ['node', 'mam'] } }), fs: FileSystemPort = new NodeFileSystem()): ClaudeAdapter {
  return new ClaudeAdapter({ fs, proc, clock: new NodeClock(), herdr: undefined as unknown as Ports['herdr'] });
}

beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

describe('ClaudeAdapter.purgeArtifacts / residualArtifacts / hasArtifacts', () => {
  it('removes every per-conversation artifact, reports each once, and touches nothing else', async () => {
    const [id, other] = [freshId(), freshId()];
    const transcript = writeTranscript(sb, id);
    const own = writeConversationArtifacts(sb, id);
    const job = writeJobDir(sb, id);
    const stale = writeSessionFile(sb, 999_999, id);
    writeTranscript(sb, other);
    writeConversationArtifacts(sb, other);
    writeJobDir(sb, other);
    mkdirSync(join(sb.config, 'projects', claudeProjectKey(sb.ws), 'memory'), { recursive: true });
    writeFileSync(join(sb.config, 'projects', claudeProjectKey(sb.ws), 'memory', 'MEMORY.md'), 'keep');
    writeFileSync(join(sb.config, 'history.jsonl'), JSON.stringify({ sessionId: id }) + '\n');
    const claude = adapter();
    const before = treeDigest(sb.root);

    expect(await claude.hasArtifacts(id, sb.ctx())).toBe(true);
    const purged = strs(await claude.purgeArtifacts(id.toUpperCase(), sb.ctx()));
    expect(purged).toEqual([...own, job, transcript, stale]);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([]);
    expect(await claude.hasArtifacts(id, sb.ctx())).toBe(false);
    expect(strs(await claude.mentions(id, sb.ctx()))).toEqual([join(sb.config, 'history.jsonl')]);

    const after = treeDigest(sb.root);
    const gone = [...before.keys()].filter((k) => !after.has(k));
    for (const k of gone) expect(purged.some((p) => join(sb.root, k) === p || join(sb.root, k).startsWith(`${p}/`))).toBe(true);
    for (const [k, v] of after) expect(before.get(k)).toBe(v);
  });

  it('keeps a live session file (a race after the gate) and reports it as residual', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    const live = writeSessionFile(sb, 4321, id, { procStart: 777 });
    const proc = new FakeProcessTable([{ pid: 4321, argv: ['claude'], startTicks: 777 }], { self: { pid: 9000, argv: ['node'] } });
    const claude = adapter(proc);
    const purged = strs(await claude.purgeArtifacts(id, sb.ctx()));
    expect(purged).toHaveLength(1);
    expect(existsSync(live)).toBe(true);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([live]);
    expect(await claude.hasArtifacts(id, sb.ctx())).toBe(true);
  });

  it('a reused pid\'s session file is stale and goes; so does one whose pid is dead', async () => {
    const id = freshId();
    const reused = writeSessionFile(sb, 4321, id, { procStart: 1 });
    const dead = writeSessionFile(sb, 4322, id);
    const proc = new FakeProcessTable([{ pid: 4321, argv: ['bash'], startTicks: 2 }], { self: { pid: 9000, argv: ['node'] } });
    expect(strs(await adapter(proc).purgeArtifacts(id, sb.ctx())).sort()).toEqual([reused, dead].sort());
  });

  it('a stale session file stays while anything it ties to the conversation stays (a retry can still attribute it)', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    const stale = writeSessionFile(sb, 999_998, id);
    // Removal unlinks through directory handles: the fault is injected where the handle's unlinks are recorded.
    const stuck = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'unlink' && m.path === t ? 'EBUSY' : undefined) });
    expect(await adapter(undefined, stuck).purgeArtifacts(id, sb.ctx())).toEqual([]);
    expect(existsSync(stale)).toBe(true);
    expect(strs(await adapter().residualArtifacts(id, sb.ctx()))).toEqual([t, stale]);
    expect(strs(await adapter().purgeArtifacts(id, sb.ctx()))).toEqual([t, stale]);
  });

  it('a candidate that cannot be looked at is noted, not taken for absent', async () => {
    const id = freshId();
    const real = new NodeFileSystem();
    const denied: FileSystemPort = Object.assign(Object.create(Object.getPrototypeOf(real) as object) as FileSystemPort, real, {
      lstat: (p: string) => (p.includes('file-history') ? Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) : real.lstat(p)),
    });
    const claude = adapter(undefined, denied);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([expect.stringMatching(new RegExp(`file-history/${id} \\(unreadable: `))]);
    expect(await claude.hasArtifacts(id, sb.ctx())).toBe(false);
  });

  it('a SQLite store in the config root that cannot be read stops every purge (it might name the id) and says so', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    const db = join(sb.config, 'broken.sqlite');
    writeFileSync(db, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(200, 7)]));
    writeFileSync(join(sb.config, 'not-sqlite.db'), 'just text');
    const claude = adapter();
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
    expect(existsSync(t)).toBe(true);
    const residual = strs(await claude.residualArtifacts(id, sb.ctx()));
    expect(residual[0]).toBe(t);
    expect(residual.slice(1)).toEqual([expect.stringMatching(/^.*broken\.sqlite \(unreadable: .*; refusing to purge\)$/)]);
    expect(await claude.discover(sb.ctx())).toEqual([id]);
  });

  it('a session file naming another id is never touched', async () => {
    const [id, other] = [freshId(), freshId()];
    writeTranscript(sb, id);
    const keep = writeSessionFile(sb, 4323, other);
    strs(await adapter().purgeArtifacts(id, sb.ctx()));
    expect(existsSync(keep)).toBe(true);
  });

  it('a job dir is emptied with state.json last and kept (residual) when anything stays', async () => {
    const id = freshId();
    const job = writeJobDir(sb, id);
    // Removal unlinks through directory handles: the fault is injected where the handle's unlinks are recorded.
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'unlink' && m.path.endsWith('timeline.jsonl') ? 'EBUSY' : undefined) });
    const claude = adapter(undefined, fs);
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
    expect(readdirSync(job).sort()).toEqual(['state.json', 'timeline.jsonl']);
    expect(fs.mutations.some((m) => m.path.endsWith('state.json'))).toBe(false);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([job]);
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
  });

  it('a job dir whose state cannot be parsed but names the id stops the purge (nothing removed)', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    mkdirSync(join(sb.config, 'jobs', 'deadbeef'), { recursive: true });
    writeFileSync(join(sb.config, 'jobs', 'deadbeef', 'state.json'), `{"sessionId":"${id}", truncated`);
    const claude = adapter();
    expect(strs(await claude.purgeArtifacts(id, sb.ctx()))).toEqual([]);
    expect(existsSync(t)).toBe(true);
    expect(strs(await claude.residualArtifacts(id, sb.ctx()))).toEqual([t, `${join(sb.config, 'jobs', 'deadbeef', 'state.json')} (unreadable job state naming the id: refusing to purge)`]);
  });

  it('finds artifacts in every key dir and every claude-* tmp owner, and a tmp root that is a link', async () => {
    const id = freshId();
    const otherKey = join(sb.config, 'projects', '-somewhere-else', `${id}.jsonl`);
    mkdirSync(join(sb.config, 'projects', '-somewhere-else'), { recursive: true });
    writeFileSync(otherKey, '{}\n');
    const realTmp = join(sb.root, 'private-tmp');
    mkdirSync(join(realTmp, 'claude-1000', '-k', id), { recursive: true });
    symlinkSync(realTmp, join(sb.root, 'tmp-link'));
    const ctx = sb.ctx({ env: { TMPDIR: join(sb.root, 'tmp-link') } });
    const claude = adapter();
    expect(strs(await claude.purgeArtifacts(id, ctx))).toEqual([join(sb.root, 'tmp-link', 'claude-1000', '-k', id), otherKey]);
    expect(existsSync(join(realTmp, 'claude-1000', '-k'))).toBe(true);
  });

  it('never throws: a failing filesystem leaves a residual, not a crash', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    const real = new NodeFileSystem();
    // Every unlink fails (through the port or a directory handle alike), and one listing is denied.
    const failing = new RecordingFileSystem(real, { failAt: (m) => (m.op === 'unlink' ? 'EIO' : undefined) });
    const broken: FileSystemPort = withOverrides(failing, {
      readdir: (p: string) => (p.endsWith('telemetry') ? Promise.reject(Object.assign(new Error('EACCES'), { code: 'EACCES' })) : real.readdir(p)),
    });
    const claude = adapter(undefined, broken);
    await expect(claude.purgeArtifacts(id, sb.ctx())).resolves.toEqual([]);
    const residual = strs(await claude.residualArtifacts(id, sb.ctx()));
    expect(residual[0]).toMatch(/\.jsonl$/);
    expect(residual.length).toBe(2);
  });

  it('reports the same artifacts under CLAUDE_CONFIG_DIR, and never the default root then', async () => {
    const id = freshId();
    writeTranscript(sb, id);
    const cfg = join(sb.root, 'cfg');
    mkdirSync(join(cfg, 'session-env', id), { recursive: true });
    const ctx = sb.ctx({ env: { ...sb.env, CLAUDE_CONFIG_DIR: cfg } });
    expect(strs(await adapter().residualArtifacts(id, ctx))).toEqual([join(cfg, 'session-env', id)]);
  });
});

// Grok's discover and verify remember, for the life of the ports, which bucket cwds resolve to themselves (under their
// parents' lstat) and the text of a hashed bucket's `.cwd` (under its lstat): what is remembered must never hide a change
// — a cwd that becomes a link to the workspace, a link swapped in above it, a rewritten `.cwd` — and nothing is
// remembered before it has settled. verifyMany lists `sessions/` once per call, whatever the number of ids.
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../../src/agents/grok/grok-adapter.js';
import { encodeGrokCwd } from '../../../../src/agents/grok/grok-encode.js';
import { resolvePorts } from '../../../../src/node/node-ports.js';
import { FakeClock } from '../../../../src/testing/fs/fake-clock.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem, freshId } from '../../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let sessions: string;
let ws: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-mem-'));
  home = join(dir, 'home');
  sessions = join(home, '.grok', 'sessions');
  ws = join(dir, 'ws');
  mkdirSync(sessions, { recursive: true });
  mkdirSync(ws);
});
afterEach(() => dispose());

function session(bucket: string, cwd: string, id = freshId(), at = '2026-08-24T20:00:55.847842Z'): string {
  mkdirSync(join(bucket, id), { recursive: true });
  writeFileSync(join(bucket, id, 'summary.json'), JSON.stringify({ info: { id, cwd }, created_at: at, updated_at: at, last_active_at: at }, null, 2));
  return id;
}

// A bucket of `cwd` under its url-encoded name, with one session.
function bucketOf(cwd: string): { bucket: string; id: string } {
  const bucket = join(sessions, encodeGrokCwd(cwd) as string);
  return { bucket, id: session(bucket, cwd) };
}

// Ports whose clock is a minute ahead of the disk (every file has settled), or the real clock (nothing has).
function adapter(settled = true): { grok: GrokAdapter; spy: SpyFileSystem } {
  const spy = new SpyFileSystem();
  const ports = resolvePorts({ fs: spy.port, proc: new FakeProcessTable([{ pid: 1, argv: ['init'] }]), ...(settled ? { clock: new FakeClock({ now: Date.now() + 60_000 }) } : {}) });
  return { grok: new GrokAdapter(ports), spy };
}

const ctx = () => ({ workspace: ws, home });
const count = (spy: SpyFileSystem, op: string, path: string): number => spy.calls.filter((c) => c.op === op && c.path === path).length;

describe('grok: remembered plain bucket cwds', () => {
  it('a bucket cwd seen plain is not resolved again while its parents are unchanged', async () => {
    const p1 = join(dir, 'projects', 'p1');
    const p2 = join(dir, 'projects', 'p2');
    for (const p of [p1, p2]) mkdirSync(p, { recursive: true }), bucketOf(p);
    const own = session(join(sessions, encodeGrokCwd(ws) as string), ws);
    const { grok, spy } = adapter();
    expect(await grok.discover(ctx())).toEqual([own]);
    expect(count(spy, 'realpath', p1)).toBe(1);
    expect(await grok.discover(ctx())).toEqual([own]);
    expect(await grok.verifyArtifact(own, ctx())).toBe(true);
    expect(count(spy, 'realpath', p1)).toBe(1);
  });

  it('a bucket cwd that becomes a link to the workspace after it was remembered plain is found', async () => {
    const p1 = join(dir, 'projects', 'p1');
    const p2 = join(dir, 'projects', 'p2');
    mkdirSync(p1, { recursive: true });
    mkdirSync(p2, { recursive: true });
    const { id } = bucketOf(p1);
    bucketOf(p2);
    const { grok } = adapter();
    expect(await grok.discover(ctx())).toEqual([]);
    expect(await grok.discover(ctx())).toEqual([]);
    renameSync(p1, join(dir, 'p1-moved'));
    symlinkSync(ws, p1);
    expect(await grok.discover(ctx())).toEqual([id]);
    expect(await grok.verifyArtifact(id, ctx())).toBe(true);
    expect(await grok.verifyMany([{ id }], ctx())).toEqual([true]);
  });

  it('a link swapped in above a remembered bucket cwd (its parent dir moved behind a link) is followed to the workspace', async () => {
    const projects = join(dir, 'projects');
    const p1 = join(projects, 'p1');
    mkdirSync(p1, { recursive: true });
    mkdirSync(join(projects, 'p2'));
    const { id } = bucketOf(p1);
    bucketOf(join(projects, 'p2'));
    const { grok } = adapter();
    expect(await grok.discover(ctx())).toEqual([]);
    expect(await grok.verifyArtifact(id, ctx())).toBe(false);
    // projects/ becomes a link to alt/, where p1 is a link to the workspace.
    renameSync(projects, join(dir, 'projects-old'));
    mkdirSync(join(dir, 'alt'));
    symlinkSync(ws, join(dir, 'alt', 'p1'));
    symlinkSync(join(dir, 'alt'), projects);
    expect(await grok.discover(ctx())).toEqual([id]);
    expect(await grok.verifyArtifact(id, ctx())).toBe(true);
  });

  it('nothing is remembered before the parents have settled (a fresh dir is resolved on every call)', async () => {
    const p1 = join(dir, 'projects', 'p1');
    mkdirSync(p1, { recursive: true });
    mkdirSync(join(dir, 'projects', 'p2'));
    bucketOf(p1);
    bucketOf(join(dir, 'projects', 'p2'));
    const { grok, spy } = adapter(false);
    await grok.discover(ctx());
    await grok.discover(ctx());
    expect(count(spy, 'realpath', p1)).toBe(2);
  });

  it('a workspace remembered plain is not resolved again, and is followed once it becomes a link to a bucket\'s cwd', async () => {
    const other = join(dir, 'elsewhere');
    mkdirSync(other);
    const { id } = bucketOf(other);
    const workspace = join(dir, 'wsl');
    mkdirSync(workspace);
    const { grok, spy } = adapter();
    const at = { workspace, home };
    expect(await grok.verifyMany([{ id }], at)).toEqual([false]);
    expect(await grok.verifyMany([{ id }], at)).toEqual([false]);
    expect(count(spy, 'realpath', workspace)).toBe(1);
    renameSync(workspace, join(dir, 'wsl-old'));
    symlinkSync(other, workspace);
    expect(await grok.verifyMany([{ id }], at)).toEqual([true]);
    expect(await grok.verifyArtifact(id, at)).toBe(true);
    expect(await grok.discover(at)).toEqual([id]);
  });

  it('a missing bucket cwd is remembered, and found once it is created as a link to the workspace', async () => {
    mkdirSync(join(dir, 'projects'));
    const gone = join(dir, 'projects', 'gone');
    const { id } = bucketOf(gone);
    bucketOf(join(dir, 'projects', 'other'));
    const { grok, spy } = adapter();
    expect(await grok.discover(ctx())).toEqual([]);
    expect(await grok.discover(ctx())).toEqual([]);
    expect(count(spy, 'realpath', gone)).toBe(1);
    symlinkSync(ws, gone);
    expect(await grok.discover(ctx())).toEqual([id]);
  });
});

describe('grok: a hashed bucket\'s .cwd', () => {
  it('is read once while it is unchanged, and read again once rewritten (to the workspace: then its sessions are found)', async () => {
    const other = join(dir, 'other');
    mkdirSync(other);
    const bucket = join(sessions, 'workspace-0123456789abcdef');
    mkdirSync(bucket);
    writeFileSync(join(bucket, '.cwd'), other);
    const id = session(bucket, ws);
    const { grok, spy } = adapter();
    expect(await grok.discover(ctx())).toEqual([]);
    expect(await grok.discover(ctx())).toEqual([]);
    expect(count(spy, 'readHead', join(bucket, '.cwd'))).toBe(1);
    writeFileSync(join(bucket, '.cwd'), ws);
    expect(await grok.discover(ctx())).toEqual([id]);
    expect(count(spy, 'readHead', join(bucket, '.cwd'))).toBe(2);
  });

  it('a .cwd that becomes a link is never read through, remembered or not', async () => {
    const bucket = join(sessions, 'workspace-0123456789abcdef');
    mkdirSync(bucket);
    writeFileSync(join(bucket, '.cwd'), ws);
    const id = session(bucket, ws);
    const { grok, spy } = adapter();
    expect(await grok.discover(ctx())).toEqual([id]);
    writeFileSync(join(dir, 'cwd-text'), ws);
    renameSync(join(bucket, '.cwd'), join(dir, 'old-cwd'));
    symlinkSync(join(dir, 'cwd-text'), join(bucket, '.cwd'));
    expect(await grok.discover(ctx())).toEqual([]);
    expect(count(spy, 'readHead', join(bucket, '.cwd'))).toBe(1);
  });
});

describe('grok: verifyMany', () => {
  it('lists sessions/ once per call and reads each id\'s own summary, never listing a bucket', async () => {
    const b = join(sessions, encodeGrokCwd(ws) as string);
    const ids = Array.from({ length: 12 }, () => session(b, ws));
    const otherWs = join(dir, 'other');
    mkdirSync(otherWs);
    const theirs = bucketOf(otherWs);
    const { grok, spy } = adapter();
    const queries = [...ids.map((id) => ({ id })), { id: theirs.id }, { id: theirs.id, workspace: otherWs }, { id: freshId() }, { id: 'not an id' }];
    expect(await grok.verifyMany(queries, ctx())).toEqual([...ids.map(() => true), false, true, false, false]);
    expect(count(spy, 'readdir', sessions)).toBe(1);
    expect(spy.calls.filter((c) => c.op === 'readdir' && c.path !== sessions)).toEqual([]);
    for (const id of ids) expect(count(spy, 'readHead', join(b, id, 'summary.json'))).toBe(1);
    spy.calls.length = 0;
    expect(await grok.verifyArtifact(ids[0] as string, ctx())).toBe(true);
    expect(count(spy, 'readdir', sessions)).toBe(1);
  });
});

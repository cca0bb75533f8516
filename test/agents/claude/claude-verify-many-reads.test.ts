// Claude's verifyMany reads each transcript's head once per batch, and only up to its first recorded cwd (a check of the
// workspace needs no start): no growing reads for a timestamp, no stat. The key is lossy, so the head is still read —
// a transcript of `/x/b-c` in the key dir of `/x/b/c` stays another workspace's.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { resolvePorts } from '../../../src/node/node-ports.js';
import { SpyFileSystem } from '../../helpers/adapter-agy-files.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeTranscript } from '../../helpers/adapter-claude-sandbox.js';

let sb: ClaudeSandbox;
beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

// A transcript whose first record names the cwd but no record carries a timestamp until after ~200 KB of others.
function lateStart(id: string, cwd: string, key: string): string {
  const path = join(sb.config, 'projects', key, `${id}.jsonl`);
  mkdirSync(join(path, '..'), { recursive: true });
  const filler = Array.from({ length: 400 }, (_, i) => JSON.stringify({ type: 'progress', n: i, text: 'x'.repeat(500) }));
  const lines = [JSON.stringify({ type: 'user', sessionId: id, cwd }), ...filler, JSON.stringify({ type: 'user', timestamp: '2026-11-30T00:00:00.000Z' })];
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('Claude verifyMany: head reads', () => {
  it('one head read per transcript per batch (repeats included), one chunk up to the first cwd, no stat; the same answers as per id', async () => {
    const ws = join(sb.root, 'x', 'b', 'c');
    const other = join(sb.root, 'x', 'b-c');
    for (const d of [ws, other]) mkdirSync(d, { recursive: true });
    const key = claudeProjectKey(ws);
    expect(claudeProjectKey(other)).toBe(key);
    const [mine, theirs, silent, late] = [freshId(), freshId(), freshId(), freshId()];
    const paths = {
      mine: writeTranscript(sb, mine, { cwd: ws, key }),
      theirs: writeTranscript(sb, theirs, { cwd: other, key }),
      silent: writeTranscript(sb, silent, { cwd: null, key }),
      late: lateStart(late, ws, key),
    };
    const queries = [mine, theirs, silent, late, mine, late, theirs, freshId()].map((id) => ({ id, workspace: ws }));
    const spy = new SpyFileSystem();
    const claude = new ClaudeAdapter(resolvePorts({ fs: spy.port }));
    const got = await claude.verifyMany(queries, sb.ctx({ workspace: ws }));

    const single = new ClaudeAdapter(resolvePorts({}));
    const want: boolean[] = [];
    for (const q of queries) want.push(await single.verifyArtifact(q.id, sb.ctx({ workspace: q.workspace })));
    expect(got).toEqual(want);
    // Issue 31: the transcript recording no cwd is no workspace's (the key dir is shared with `x/b-c`).
    expect(got).toEqual([true, false, false, true, true, true, false, false]);

    const heads = (p: string): number => spy.calls.filter((c) => c.op === 'readHead' && c.path === p).length;
    expect(Object.values(paths).map(heads)).toEqual([1, 1, 1, 1]);
    const transcripts = new Set(Object.values(paths));
    expect(spy.calls.filter((c) => c.op === 'stat' && transcripts.has(c.path))).toEqual([]);
  });

  // Issue 32: one verification — the per-id check is the batch of one, so it reads the late-start transcript as the
  // batch does (it read more than one chunk while it was a second implementation).
  it('the per-id check of the late-start transcript reads what the batch reads: one chunk', async () => {
    const id = freshId();
    const path = lateStart(id, sb.ws, claudeProjectKey(sb.ws));
    const spy = new SpyFileSystem();
    expect(await new ClaudeAdapter(resolvePorts({ fs: spy.port })).verifyArtifact(id, sb.ctx())).toBe(true);
    expect(spy.calls.filter((c) => c.op === 'readHead' && c.path === path).length).toBe(1);
  });

  it('transcripts recording the workspace as given answer without resolving it; a linked workspace and a lossy twin go the full way', async () => {
    const link = join(sb.root, 'ws-link');
    symlinkSync(sb.ws, link);
    const twin = join(sb.root, 'ws', 'x-y');
    const lossy = join(sb.root, 'ws', 'x', 'y');
    for (const d of [twin, lossy]) mkdirSync(d, { recursive: true });
    const [a, b, c] = [freshId(), freshId(), freshId()];
    writeTranscript(sb, a);
    writeTranscript(sb, b, { cwd: null });
    writeTranscript(sb, c, { cwd: twin, key: claudeProjectKey(lossy) });
    const spy = new SpyFileSystem();
    const claude = new ClaudeAdapter(resolvePorts({ fs: spy.port }));
    expect(await claude.verifyMany([{ id: a }, { id: a }], sb.ctx())).toEqual([true, true]);
    expect(spy.calls.filter((x) => x.op === 'realpath' && x.path === sb.ws)).toEqual([]);
    // Issue 31: `b` records no cwd, so it is no workspace's (its key dir may be another path's too: that takes the full way).
    expect(await claude.verifyMany([{ id: b }], sb.ctx())).toEqual([false]);
    const queries = [{ id: a, workspace: link }, { id: b, workspace: link }, { id: c, workspace: lossy }, { id: c, workspace: twin }, { id: a, workspace: lossy }];
    const got = await claude.verifyMany(queries, sb.ctx());
    const single = new ClaudeAdapter(resolvePorts({}));
    const want: boolean[] = [];
    for (const q of queries) want.push(await single.verifyArtifact(q.id, sb.ctx({ workspace: q.workspace })));
    expect(got).toEqual(want);
    // The link's transcripts are under its target's key; the twin's transcript (in the key dir it shares with the lossy
    // path) is the twin's, not the lossy path's.
    expect(got).toEqual([true, false, false, true, false]);
  });
});

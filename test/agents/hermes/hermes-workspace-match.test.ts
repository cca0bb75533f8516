// The Hermes workspace matcher gives directoryMatcher's answer (the workspace, a link to it: yes; another directory, a
// missing one, a relative one: no), but rules a directory of another inode out with one stat, no realpath.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { directoryMatcher } from '../../../src/agents/common/same-directory.js';
import { workspaceMatcher } from '../../../src/agents/hermes/hermes-workspace-match.js';
import { RecordingFs } from '../../helpers/sqlite-recording-fs.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-hermes-match-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('workspaceMatcher', () => {
  it('answers as directoryMatcher does, and realpaths no directory of another inode', async () => {
    const ws = join(root, 'ws');
    const other = join(root, 'other');
    mkdirSync(ws);
    mkdirSync(other);
    symlinkSync(ws, join(root, 'alias'));
    symlinkSync(other, join(root, 'other-alias'));
    const cases = [ws, `${ws}/`, join(root, 'alias'), other, join(root, 'other-alias'), join(root, 'missing'), 'ws', `${ws}\0x`];
    const rec = new RecordingFs();
    const fast = workspaceMatcher(rec.port, ws);
    const slow = await directoryMatcher(rec.port, ws);
    const got = [];
    for (const c of cases) got.push(await fast(c));
    const want = [];
    for (const c of cases) want.push(await slow.matches(c));
    expect(got).toEqual(want);
    expect(got).toEqual([true, true, true, false, false, false, false, false]);
    const realpaths = rec.calls.filter((c) => c.op === 'realpath').map((c) => c.args[0]);
    for (const d of [other, join(root, 'other-alias'), join(root, 'missing')]) expect(realpaths.filter((p) => p === d)).toHaveLength(1); // the slow matcher's own
  });
});

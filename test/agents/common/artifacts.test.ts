import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { existingArtifacts, removeArtifacts } from '../../../src/agents/common/artifacts.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';

const fs = new NodeFileSystem();

describe('removeArtifacts', () => {
  it('reports only what existed, a dir once, and never follows a linked dir', async () => {
    const base = mkdtempSync(join(tmpdir(), 'mam-art-'));
    const root = join(base, 'root');
    const outside = join(base, 'outside');
    mkdirSync(join(root, 'brain', 'x'), { recursive: true });
    mkdirSync(outside);
    writeFileSync(join(root, 'brain', 'x', 'a'), '1');
    writeFileSync(join(root, 'x.db'), '1');
    writeFileSync(join(outside, 'x.lock'), 'keep');
    symlinkSync(outside, join(root, 'presence'));
    const items = [
      { root, path: join(root, 'x.db') },
      { root, path: join(root, 'missing.pbtxt') },
      { root, path: join(root, 'brain', 'x') },
      { root, path: join(root, 'presence', 'x.lock') },
    ];
    expect((await existingArtifacts(fs, items)).map((i) => i.path)).toEqual([join(root, 'x.db'), join(root, 'brain', 'x'), join(root, 'presence', 'x.lock')]);
    const report = await removeArtifacts(fs, items);
    expect(report.purged).toEqual([
      { kind: 'file', path: join(root, 'x.db') },
      { kind: 'dir', path: join(root, 'brain', 'x') },
    ]);
    expect(report.residual).toEqual([{ kind: 'file', path: join(root, 'presence', 'x.lock'), reason: 'a link on the way is never followed' }]);
    expect(existsSync(join(outside, 'x.lock'))).toBe(true);
  });
});

describe('removeArtifacts with stopOnFailure', () => {
  it('stops at the first item that cannot go and reports the rest as residual', async () => {
    const { RecordingFileSystem } = await import('../../../src/testing/fs/recording-file-system.js');
    const base = mkdtempSync(join(tmpdir(), 'mam-art-stop-'));
    for (const n of ['a', 'b', 'c']) writeFileSync(join(base, n), n);
    const items = ['a', 'b', 'c'].map((n) => ({ root: base, path: join(base, n) }));
    const failing = new RecordingFileSystem(fs, { failAt: { n: 2, code: 'EBUSY' } });
    const report = await removeArtifacts(failing, items, { stopOnFailure: true });
    expect(report).toEqual({
      purged: [{ kind: 'file', path: join(base, 'a') }],
      residual: [
        // The item that could not go says why; the ones not tried after it are residual without a removal's reason.
        { kind: 'file', path: join(base, 'b'), reason: expect.stringContaining('EBUSY') },
        { kind: 'file', path: join(base, 'c'), reason: expect.stringMatching(/^not removed/) },
      ],
    });
    expect(existsSync(join(base, 'c'))).toBe(true);
    const again = new RecordingFileSystem(fs, { failAt: { n: 2, code: 'EBUSY' } });
    for (const n of ['a']) writeFileSync(join(base, n), n);
    expect((await removeArtifacts(again, items)).purged).toEqual([
      { kind: 'file', path: join(base, 'a') },
      { kind: 'file', path: join(base, 'c') },
    ]);
  });
});

import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { existingArtifacts, removeArtifacts } from '../../../../src/adapters/common/artifacts.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';

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
    expect(report.purged).toEqual([join(root, 'x.db'), join(root, 'brain', 'x')]);
    expect(report.residual).toEqual([join(root, 'presence', 'x.lock')]);
    expect(existsSync(join(outside, 'x.lock'))).toBe(true);
  });
});

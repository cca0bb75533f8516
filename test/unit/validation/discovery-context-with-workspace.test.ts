// withWorkspace: a checked context with another workspace is checked without a second parse of the rest or a second stat
// of the home; its workspace is still checked, and an unchecked context gives a plain copy the method's check parses whole.
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { checkDiscoveryContext, requireDiscoveryContext, withWorkspace } from '../../../src/validation/discovery-context.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'mam-with-ws-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('withWorkspace', () => {
  it('of a checked context: checked (known), the workspace replaced, the rest kept', async () => {
    const ctx = await requireDiscoveryContext(new NodeFileSystem(), { workspace: dir, home: dir, env: { A: 'b' } });
    const out = withWorkspace(ctx, join(dir, 'sub'));
    expect(out).toEqual({ workspace: join(dir, 'sub'), home: dir, env: { A: 'b' } });
    expect(checkDiscoveryContext(out).known).toBe(true);
    expect(checkDiscoveryContext(ctx).ctx.workspace).toBe(dir);
  });

  it.each(['relative/dir', '', `${dir}/x\0y`])('of a checked context, a workspace %j that is no absolute path is refused', async (w) => {
    const ctx = await requireDiscoveryContext(new NodeFileSystem(), { workspace: dir, home: dir });
    expect(() => withWorkspace(ctx, w)).toThrow(InvalidArgumentError);
  });

  it('of an unchecked context: a plain copy, not known (its check then parses it whole)', () => {
    const out = withWorkspace({ workspace: dir, home: 'not/absolute' }, 'relative');
    expect(out).toEqual({ workspace: 'relative', home: 'not/absolute' });
    expect(checkDiscoveryContext.bind(null, out)).toThrow(InvalidArgumentError);
  });
});

// Regression (fault injection over a reset): when the guard's release could not remove its marker, the marker named
// this live process, so every later reset or loop in the same process was refused ("a multi-agent-mux-loop is
// running") until the process exited. A marker this process failed to remove is now stale here; a marker naming this
// process that it never held (as tests write) stays live.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LoopGuard } from '../../../src/loop/loop-guard.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { RecordingFileSystem } from '../../../src/testing/fs/recording-file-system.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { liveMarkerText } from '../../helpers/reset-kit.js';

describe('LoopGuard release that cannot remove its marker', () => {
  let ws: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: ws, dispose } = await makeTempDir('mam-guard-fault-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('rejects, leaves the marker, and the marker no longer blocks this process', async () => {
    const marker = join(ws, '.mam', 'loop-guard-active');
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'unlink' && m.path === marker ? 'EACCES' : null) });
    const got = await new LoopGuard(ws, { ports: { ...nodePorts(), fs } }).acquire({ holder: 'reset' });
    if (got.kind !== 'acquired') throw new Error(got.message);
    await expect(got.guard.release()).rejects.toThrow(/EACCES/);
    expect(existsSync(marker)).toBe(true);
    const guard = new LoopGuard(ws, { ports: nodePorts() });
    expect(await guard.inspect()).toMatchObject({ kind: 'stale' });
    const again = await guard.acquire({ holder: 'reset' });
    expect(again.kind).toBe('acquired');
    if (again.kind === 'acquired') await again.guard.release();
    expect(existsSync(marker)).toBe(false);
  });

  it('a marker naming this process that it never held stays live', async () => {
    const guard = new LoopGuard(ws, { ports: nodePorts(), markerPath: join(ws, 'loop-guard-active') });
    writeFileSync(guard.path, await liveMarkerText());
    expect((await guard.inspect()).kind).toBe('live');
  });
});

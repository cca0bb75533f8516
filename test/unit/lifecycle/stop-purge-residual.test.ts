// Regression (fault injection over a reset): a stop with purge whose purge left part of the conversation on disk
// removed the row anyway, so nothing knew the id any more and the leftover stayed for good (a reset even called the
// target done). Now the row stays stopped with its id, the stop fails at `purge` naming what is left, and a later stop
// with purge finishes the job.
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { rowByName } from '../../../src/registry/row-lookup.js';
import { RecordingFileSystem } from '../../../src/testing/fs/recording-file-system.js';
import { type LifecycleKit, lifecycleKit } from '../../helpers/lifecycle-kit.js';
import { makeRow, UA } from '../../helpers/registry-fixtures.js';

describe('SessionLifecycle.stop with a purge that leaves residual', () => {
  let k: LifecycleKit;
  beforeEach(async () => {
    k = await lifecycleKit();
  });
  afterEach(async () => {
    await k.dispose();
  });

  it('keeps the row stopped with its id and fails at purge; a second stop with purge removes the rest and the row', async () => {
    const seeded = k.herdr.addAgent({ name: 'reviewer-claude-01', kind: 'claude', cwd: k.ws, pid: 4242, argv: ['claude', '--session-id', UA] });
    k.proc.add({ pid: 4242, argv: ['claude', '--session-id', UA] });
    await k.registry.update((d) => void d.herdr_sessions.push({ ...makeRow('reviewer-claude-01', 'claude', k.ws, { ownId: UA, epoch: Math.floor(k.clock.now() / 1000) - 60 }), herdr_pane_id: seeded.paneId }));
    const transcript = k.claudeTranscript(UA);
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'unlink' && m.path === transcript ? 'EBUSY' : null) });
    const r = await k.life({ ports: { ...k.ports, fs } }).stop('reviewer-claude-01', { purge: true, yes: true });
    expect(r.kind).toBe('failed');
    if (r.kind !== 'failed') return;
    expect(r.step).toBe('purge');
    expect(r.error.message).toContain(transcript);
    expect(existsSync(transcript)).toBe(true);
    expect(rowByName(await k.registry.snapshot(), 'reviewer-claude-01')).toMatchObject({ status: 'stopped', claude_session_id_own: UA });
    const again = await k.life().stop('reviewer-claude-01', { purge: true, yes: true });
    expect(again).toMatchObject({ kind: 'purged-and-removed', id: UA, purge: { kind: 'purged', residual: [] } });
    expect(existsSync(transcript)).toBe(false);
    expect((await k.registry.snapshot()).herdr_sessions).toEqual([]);
  });
});

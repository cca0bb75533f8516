// A marker the gate judged removable but could not remove (the unlink failed): it is reported (pass or refusal, with the
// port's reason) and blocks nothing a removed marker would not; the next look tries again.
import { existsSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IdOrderGateResult } from '../../../src/gate/id-order-gate.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { RecordingFileSystem } from '../../../src/testing/fs/recording-file-system.js';
import { makeRow } from '../../helpers/registry-fixtures.js';
import { type GateKit, gateKit } from '../../helpers/lifecycle-gate-kit.js';

const req = (k: GateKit) => ({ session: 'reviewer-codex-02', cwd: k.ws, herdrServer: 'default' });

// A filesystem whose unlink of `file` fails with EACCES while `failing()` says so.
function denyUnlink(file: string, failing: () => boolean = () => true): RecordingFileSystem {
  return new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'unlink' && m.path === file && failing() ? 'EACCES' : null) });
}

describe('IdOrderGate: a marker it cannot remove', () => {
  let k: GateKit;
  beforeEach(async () => {
    k = await gateKit();
  });
  afterEach(async () => {
    await k.dispose();
  });

  it('does not block the pass (a gone owner\'s marker never would) and is reported with why', async () => {
    k.herdr.addAgent({ name: 'someone-else', kind: 'codex', cwd: k.ws });
    const { file, marker } = await k.writeMarker({ owner_pid: 778 });
    const fs = denyUnlink(file);
    const r: IdOrderGateResult = await k.gate({ waitSeconds: 5, ports: { ...k.ports, fs } }).enter(req(k));
    if (r.kind !== 'passed') throw new Error(r.message);
    expect(r.pruned).toEqual([]);
    expect(r.unremoved).toEqual([{ file, marker, reason: 'gone', error: expect.stringContaining('permission denied') }]);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(r.ticket.file)).toBe(true);
    expect(fs.mutations.filter((m) => m.op === 'unlink' && m.fault === 'EACCES')).toHaveLength(1);
    await r.ticket.release();
  });

  it('is named in a refusal caused by another marker, and once the unlink works again a later look removes it', async () => {
    k.live(777);
    const alive = await k.writeMarker({ owner_pid: 777, session: 'reviewer-agy-01' });
    // A dead owner whose row is registered for the attempt: removable at every look, herdr never asked.
    const stale = await k.writeMarker({ owner_pid: 778, session: 'reviewer-agy-03' });
    await k.registry.update((d) => {
      d.herdr_sessions.push(makeRow('reviewer-agy-03', 'agy', k.ws, { epoch: stale.marker.attempt }));
    });
    let deny = true;
    const fs = denyUnlink(stale.file, () => deny);
    const gate = k.gate({ waitSeconds: 0, ports: { ...k.ports, fs } });
    const r = await gate.enter(req(k));
    if (r.kind !== 'refused') throw new Error('expected a refusal');
    expect(r.blockers).toMatchObject([{ file: alive.file, state: 'owner-alive' }]);
    expect(r.unremoved).toMatchObject([{ file: stale.file, reason: 'registered' }]);
    expect(r.message).toContain(`could not remove the registered marker of "reviewer-agy-03" (${stale.file}): EACCES: permission denied`);
    expect(r.message).toContain('it blocks nothing, remove it by hand');

    deny = false;
    const again = await gate.enter(req(k));
    if (again.kind !== 'refused') throw new Error('expected a refusal');
    expect(again.unremoved).toEqual([]);
    expect(again.message).not.toContain('could not remove');
    expect(again.message).toContain('the creating process (pid 777) is still running');
    expect(existsSync(stale.file)).toBe(false);
    expect(existsSync(alive.file)).toBe(true);
  });
});

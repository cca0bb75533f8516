import { writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionRegistry } from '../../../src/registry/index.js';
import { makeRow, makeWorkspace } from '../../helpers/registry-fixtures.js';

// snapshot() hands out a freshly parsed state without copying it the first time a version is read, and keeps (and
// copies) it from the second read on: whichever way, every snapshot is the caller's own.
describe('snapshot copies', () => {
  let ws: string;
  let yaml: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ ws, yaml, dispose } = await makeWorkspace('mam-reg-snap-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('a changed snapshot changes no later read, from a new instance or the same one, nor an update', async () => {
    await new SessionRegistry(ws).update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws), makeRow('b', 'codex', ws));
    });
    const registry = new SessionRegistry(ws);
    const reads = [];
    for (let i = 0; i < 4; i++) {
      const s = await registry.snapshot();
      reads.push(structuredClone(s));
      s.herdr_sessions.length = 0;
      s.orchestrator_uuids.push('x');
      s['extra'] = i;
    }
    expect(reads[0]?.herdr_sessions.map((r) => r.name)).toEqual(['a', 'b']);
    for (const r of reads) expect(r).toEqual(reads[0]);
    // The update sees the file, not what a caller did to a snapshot.
    await registry.update((d) => {
      expect(d.herdr_sessions.map((r) => r.name)).toEqual(['a', 'b']);
      (d.herdr_sessions[0] as { status: string }).status = 'stopped';
    });
    const after = await registry.snapshot();
    expect(after.herdr_sessions.map((r) => r.status)).toEqual(['stopped', 'running']);
    expect(after.orchestrator_uuids).toEqual([]);
    expect(Object.hasOwn(after, 'extra')).toBe(false);
  });

  it('follows the file when another writer changes it between reads', async () => {
    const registry = new SessionRegistry(ws);
    await writeFile(yaml, 'herdr_sessions:\n- name: a\n  status: running\n');
    expect((await registry.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
    await writeFile(yaml, 'herdr_sessions:\n- name: b\n  status: running\n');
    expect((await registry.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['b']);
    expect((await registry.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['b']);
    await writeFile(yaml, 'herdr_sessions:\n- name: a\n  status: running\n');
    expect((await registry.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
  });
});

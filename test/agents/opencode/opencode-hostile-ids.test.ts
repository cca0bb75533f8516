// An id that is not a plausible OpenCode id (`ses_` + 12 hex + 14 base62) reaches no path, runs nothing and reads no
// database: purge, residual, hasArtifacts, mentions, verify and the in-use check answer at once.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../src/agents/opencode/opencode-adapter.js';
import { isPlausibleId } from '../../../src/ids/agent-id.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { FileSystemPort } from '../../../src/ports/fs.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { strs } from '../../helpers/artifact-strings.js';

// Every call to the filesystem, whatever it is.
function spyFs(): { fs: FileSystemPort; calls: string[] } {
  const real = new NodeFileSystem();
  const calls: string[] = [];
  const fs = new Proxy(real, {
    get(target, prop, recv) {
      const v = Reflect.get(target, prop, recv) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        calls.push(`${String(prop)} ${String(args[0])}`);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { fs, calls };
}

const HOSTILE = ['memory', 'notes', '../x', '/etc', '', 'ses_\0dd6159fa8ffeNLy5Gq', 'SES_DD6159FA8FFENLY5GQCBDIUNLX', 'ses_DD6159FA8FFEnly5gqcbdiunlx', 'ses_dd6159fa8ffeNLy5GqcBDiUnl', 'ses_dd6159fa8ffeNLy5GqcBDiUnlX/..', 'ses_dd6159fa8ffe../../etc/pass', '6f1b1f5e-6a7e-4a2b-9f1e-2c7d9a0b1c3d', 'ses_dd6159fa8ffeNLy5GqcBDiUnlX\n'];

async function reachesNothing(id: string): Promise<void> {
  const { fs, calls } = spyFs();
  const proc = new FakeProcessTable([{ pid: 7, argv: ['opencode', '--session', id] }], { self: { pid: 9, argv: ['node'], env: { OPENCODE_SESSION_ID: id } }, onRun: () => { throw new Error('ran'); } });
  const a = new OpencodeAdapter({ fs, proc, herdr: new FakeHerdr(), clock: new FakeClock() });
  const ctx = { workspace: '/tmp', home: '/tmp', env: { HOME: '/tmp', PATH: '/usr/bin' } };
  expect(strs(await a.purgeArtifacts(id, ctx))).toEqual([]);
  expect(strs(await a.residualArtifacts(id, ctx))).toEqual([]);
  expect(await a.hasArtifacts(id, ctx)).toBe(false);
  expect(strs(await a.mentions(id, ctx))).toEqual([]);
  expect(await a.verifyArtifact(id, ctx)).toBe(false);
  expect(await a.inUseHolders(id, ctx)).toEqual([]);
  expect(calls).toEqual([]);
  expect(proc.runs).toEqual([]);
  expect(proc.snapshotCalls + proc.holdersCalls).toBe(0);
}

describe('hostile ids', () => {
  it.each(HOSTILE.map((h) => [JSON.stringify(h), h]))('%s reaches nothing', async (_label, id) => {
    expect(isPlausibleId('opencode', id)).toBe(false);
    await reachesNothing(id);
  });

  it('any string that is not a plausible id reaches nothing (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('ses_', 'ses_0123456789ab').chain((p) => fc.string().map((s) => p + s))), async (id) => {
        fc.pre(!isPlausibleId('opencode', id));
        await reachesNothing(id);
      }),
      { numRuns: 200 },
    );
  });
});

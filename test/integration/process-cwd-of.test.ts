// ProcessPort.cwdOf: the working directory of a live process (Linux /proc), null when it cannot be told; the fake answers
// what it was seeded with.
import { describe, expect, it } from 'vitest';
import { existsSync, realpathSync } from 'node:fs';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { FakeProcessTable } from '../../src/testing/process/index.js';

describe('ProcessPort.cwdOf', () => {
  it.runIf(existsSync('/proc/self/cwd'))('NodeProcessPort reads a live process\'s cwd from /proc', async () => {
    const port = new NodeProcessPort();
    expect(await port.cwdOf(process.pid)).toBe(realpathSync(process.cwd()));
    expect(await port.cwdOf(2 ** 30)).toBeNull();
    expect(await port.cwdOf(-1)).toBeNull();
  });

  it('without /proc it cannot tell', async () => {
    expect(await new NodeProcessPort({ useProc: false }).cwdOf(process.pid)).toBeNull();
  });

  it('the fake answers the seeded cwd, null for none or a zombie', async () => {
    const t = new FakeProcessTable([{ pid: 7, argv: ['opencode'], cwd: '/w' }, { pid: 8, argv: ['x'] }]);
    expect(await t.cwdOf(7)).toBe('/w');
    expect(await t.cwdOf(8)).toBeNull();
    t.zombify(7);
    expect(await t.cwdOf(7)).toBeNull();
  });
});

import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeProcessPort } from '../../src/node/node-process.js';
import { startChild, stopAll } from '../helpers/proc-children.js';

// Processes that exit between the listing and the read must be skipped, never fail the scan.
describe.runIf(existsSync('/proc/self/stat'))('a /proc scan while processes come and go', () => {
  beforeAll(async () => {
    await startChild('sh', ['-c', 'echo ready; while :; do /bin/true; /bin/true; done']);
  });
  afterAll(stopAll);

  it('never rejects and never reports a half-read process', async () => {
    const port = new NodeProcessPort({ env: { PATH: '/nonexistent-mam-bin' } });
    for (let i = 0; i < 25; i++) {
      const snap = await port.snapshot();
      expect(snap.length).toBeGreaterThan(0);
      for (const p of snap) {
        expect(Number.isSafeInteger(p.ppid)).toBe(true);
        expect(p.startedAtMs).toBeTypeOf('number');
        expect(p.comm).not.toBe('');
      }
      expect(await port.holders(['/proc/self/stat'])).toBeInstanceOf(Array);
    }
  });
});

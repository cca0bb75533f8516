// `npm run example:custom-agent` as a reader runs it: the example (examples/custom-agent/main.mjs, importing only
// `@mam/core` and `@mam/core/testing`, resolved to dist/ — built by the test setup) exits 0 with every answer checked.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

describe('examples/custom-agent', () => {
  it('discovers, verifies, finds the holder, plans and purges a third-party agent, by name and by auto', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'examples/custom-agent/main.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.stdout).not.toContain('FAIL');
    expect(r.stdout).toContain('purge auto: purged by notes');
    expect(r.stdout).toContain('runAgentContract: the live holder is refused by a PurgeService too');
    expect(r.stdout).toContain('custom agent: every answer as expected');
    expect(r.status).toBe(0);
  });
});

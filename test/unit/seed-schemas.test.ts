// The schemas Sandbox.seed creates are the real CLIs' own: the files of src/testing/sandbox/seed-schemas/ are what
// scripts/gen-seed-schemas.mjs reads from the recorded stages under test/fixtures, and must stay so.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('seed schemas', () => {
  it('are the CREATE statements of the recorded real databases (scripts/gen-seed-schemas.mjs --check)', () => {
    const script = fileURLToPath(new URL('../../scripts/gen-seed-schemas.mjs', import.meta.url));
    const r = spawnSync(process.execPath, [script, '--check'], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});

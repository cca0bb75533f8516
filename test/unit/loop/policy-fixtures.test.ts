import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SCENARIO_DIR, SHARED_SCENARIO_DIR } from '../../helpers/jobs-scenarios.js';

const read = (dir: string): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).filter((n) => n.endsWith('.json') || n.endsWith('.md')).sort().map((n) => [n, readFileSync(join(dir, n), 'utf8')]));

describe('the in-repo copy of the policy vectors', () => {
  it('holds the manifest and twelve vectors', () => {
    expect(Object.keys(read(SCENARIO_DIR)).filter((n) => n.endsWith('.json'))).toHaveLength(13);
  });

  it.runIf(existsSync(SHARED_SCENARIO_DIR))('is byte-identical to shared/spec/policy-scenarios', () => {
    expect(read(SCENARIO_DIR)).toEqual(read(SHARED_SCENARIO_DIR));
  });
});

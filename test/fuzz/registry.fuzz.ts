// Random registry files: a valid registry or a RegistryCorruptError, never another exception, never overwritten.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRegistryBytes } from '../helpers/fault-registry-property.js';
import { FUZZ_RUNS } from '../helpers/fault-fuzz-runs.js';
import { makeWorkspace } from '../helpers/registry-fixtures.js';

let w: Awaited<ReturnType<typeof makeWorkspace>>;
beforeAll(async () => {
  w = await makeWorkspace('mam-fuzz-reg-');
});
afterAll(async () => {
  await w.dispose();
});

describe(`random registry files (fuzz, ${FUZZ_RUNS} cases)`, () => {
  it('read as a valid registry or refused with RegistryCorruptError, never overwritten', async () => {
    const seen = await checkRegistryBytes(w.ws, w.yaml, FUZZ_RUNS);
    expect(seen.valid).toBeGreaterThan(0);
    expect(seen.corrupt).toBeGreaterThan(0);
  });
});

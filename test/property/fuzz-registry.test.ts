// A small sample of the registry-file property (the fuzz run does 10 000): a valid registry or a RegistryCorruptError,
// never another exception, and no update ever writes over an unreadable file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRegistryBytes } from '../helpers/fault-registry-property.js';
import { makeWorkspace } from '../helpers/registry-fixtures.js';

let w: Awaited<ReturnType<typeof makeWorkspace>>;
beforeAll(async () => {
  w = await makeWorkspace('mam-fuzz-reg-');
});
afterAll(async () => {
  await w.dispose();
});

describe('random registry files (property, sample)', () => {
  it('read as a valid registry or refused with RegistryCorruptError, never overwritten', async () => {
    const seen = await checkRegistryBytes(w.ws, w.yaml, 300);
    // Both outcomes must have been exercised.
    expect(seen.valid).toBeGreaterThan(10);
    expect(seen.corrupt).toBeGreaterThan(10);
  });
});

import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RegistryCorruptError, SessionRegistry } from '../../../src/registry/index.js';
import { makeWorkspace } from '../../helpers/registry-fixtures.js';

// PyYAML's safe_load refuses every tag it does not know: so does the registry, as it refuses any malformed file.
const TAGGED: Array<[string, string]> = [
  ['a local tag on a field', 'herdr_sessions:\n- name: r1\n  status: running\n  note: !x hello\n'],
  ['a local tag on a row', 'herdr_sessions:\n- !row\n  name: r1\n  status: running\n'],
  ['!!python/object', 'herdr_sessions:\n- name: r1\n  status: running\n  pane: !!python/object:os.system {cmd: ls}\n'],
  ['!!python/name', 'herdr_sessions: []\norchestrator_uuids: !!python/name:os.system\n'],
  ['a verbatim unknown tag', 'herdr_sessions:\n- name: r1\n  status: !<tag:example.com,2026:odd> running\n'],
];

describe('registry files with YAML tags', () => {
  let ws: string;
  let yaml: string;
  let db: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ ws, yaml, db, dispose } = await makeWorkspace());
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await dispose();
  });

  it.each(TAGGED)('%s: a typed error naming the tag, the file untouched, nothing printed', async (_l, text) => {
    const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const logged = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await writeFile(yaml, text);
    const registry = new SessionRegistry(ws);
    const err = await registry.snapshot().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryCorruptError);
    expect((err as RegistryCorruptError).data.problem).toBe('yaml');
    expect((err as RegistryCorruptError).message).toMatch(/invalid YAML: Unresolved tag/);
    expect((err as RegistryCorruptError).data.issues[0]?.line).toBeTypeOf('number');
    let called = false;
    const upd = await registry.update(() => {
      called = true;
    }).catch((x: unknown) => x);
    expect(upd).toBeInstanceOf(RegistryCorruptError);
    expect(called).toBe(false);
    expect(await readFile(yaml, 'utf8')).toBe(text);
    expect(existsSync(db)).toBe(false);
    expect(warned).not.toHaveBeenCalled();
    expect(logged).not.toHaveBeenCalled();
  });

  it('the standard tags safe_load knows still read: !!str keeps a number a string', async () => {
    await writeFile(yaml, 'herdr_sessions:\n- name: !!str 123\n  status: running\n  note: !!str yes\n');
    const state = await new SessionRegistry(ws).snapshot();
    expect(state.herdr_sessions[0]).toMatchObject({ name: '123', note: 'yes' });
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { Ports } from '../../../src/ports/index.js';
import { Orchestrators } from '../../../src/purge/orchestrators.js';
import { SessionRegistry } from '../../../src/registry/session-registry.js';
import { VirtualClock } from '../../../src/testing/herdr/virtual-clock.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { agyTree, type AgyTree } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

const ID = '0b000001-0000-4000-8000-0000000000b1';

function exist(tree: AgyTree): boolean[] {
  return Object.values(tree).map((p) => existsSync(p));
}

describe('Orchestrators', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  let proc: FakeProcessTable;
  let registry: SessionRegistry;
  const make = (env: Record<string, string> = {}): Orchestrators => {
    proc = new FakeProcessTable([], { self: { pid: 500, argv: ['node', 'mam', 'orc'], env: { HOME: dir, ...env } } });
    const ports: Ports = { fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new VirtualClock() };
    registry = new SessionRegistry(dir, { ports });
    return new Orchestrators(dir, { ports, registry });
  };
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-orc-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it('registers (canonical spelling, once), lists, and refuses an id no agent could have', async () => {
    const orcs = make();
    expect(await orcs.register(ID.toUpperCase())).toEqual({ kind: 'registered', id: ID });
    expect(await orcs.register(ID)).toEqual({ kind: 'already-registered', id: ID });
    expect(await orcs.list()).toEqual([ID]);
    for (const bad of ['../x', '', 'memory', `${ID}\u0000`, '/etc/passwd']) expect((await orcs.register(bad)).kind).toBe('invalid-id');
    expect(await orcs.list()).toEqual([ID]);
  });

  it('remove without purge unregisters and touches no artifact', async () => {
    const orcs = make();
    const tree = agyTree(dir, ID);
    await orcs.register(ID);
    expect(await orcs.remove(ID.toUpperCase())).toEqual({ kind: 'removed', id: ID, purge: null });
    expect(await orcs.list()).toEqual([]);
    expect(exist(tree).every(Boolean)).toBe(true);
  });

  it('remove + purge without yes is refused ("Re-run with --yes"); artifacts and registration untouched', async () => {
    const orcs = make();
    const tree = agyTree(dir, ID);
    await orcs.register(ID);
    const r = await orcs.remove(ID, { purgeConversation: true });
    expect(r.kind).toBe('needs-yes');
    expect(r.kind === 'needs-yes' && r.message).toContain('Re-run with --yes');
    expect(exist(tree).every(Boolean)).toBe(true);
    expect(await orcs.list()).toEqual([ID]);
  });

  it('remove + purge + yes purges every artifact (agent resolved from disk) and unregisters', async () => {
    const orcs = make();
    const tree = agyTree(dir, ID);
    await orcs.register(ID);
    const r = await orcs.remove(ID, { purgeConversation: true, yes: true });
    expect(r).toMatchObject({ kind: 'removed', id: ID, purge: { kind: 'purged', agent: 'agy', residual: [] } });
    expect(r.kind === 'removed' && r.purge?.kind === 'purged' && r.purge.purged).toHaveLength(6);
    expect(exist(tree).some(Boolean)).toBe(false);
    expect(await orcs.list()).toEqual([]);
  });

  it.each([
    ['another process names it', (p: FakeProcessTable) => p.add({ pid: 777, argv: ['agy', '--conversation', ID] })],
    ['another process holds its presence lock', (p: FakeProcessTable) => {
      p.add({ pid: 778, argv: ['python3', '-c', 'hold'] });
      p.open(778, join(dir, '.gemini', 'antigravity-cli', 'presence', `${ID}.lock`));
    }],
  ])('remove + purge + yes while in use (%s): refused, artifacts and registration kept', async (_what, hold) => {
    const orcs = make();
    const tree = agyTree(dir, ID);
    await orcs.register(ID);
    hold(proc);
    const r = await orcs.remove(ID, { purgeConversation: true, yes: true });
    expect(r.kind).toBe('in-use');
    expect(r.kind === 'in-use' && r.message).toContain('still in use');
    expect(exist(tree).every(Boolean)).toBe(true);
    expect(await orcs.list()).toEqual([ID]);
  });

  it.each(['CLAUDE_CODE_SESSION_ID', 'ANTIGRAVITY_CONVERSATION_ID', 'HERMES_SESSION_ID', 'GROK_SESSION_ID', 'OPENCODE_SESSION_ID'])(
    'from the orchestrator\'s own session (%s carries the id): refused, artifacts and registration kept',
    async (variable) => {
      const orcs = make({ [variable]: ID });
      const tree = agyTree(dir, ID);
      await orcs.register(ID);
      expect((await orcs.remove(ID, { purgeConversation: true, yes: true })).kind).toBe('in-use');
      expect(exist(tree).every(Boolean)).toBe(true);
      expect(await orcs.list()).toEqual([ID]);
    },
  );

  it('remove + purge + yes with nothing on disk: nothing to purge, still unregistered', async () => {
    const orcs = make();
    await orcs.register(ID);
    expect(await orcs.remove(ID, { purgeConversation: true, yes: true })).toEqual({ kind: 'removed', id: ID, purge: { kind: 'unresolved', agent: null } });
    expect(await orcs.list()).toEqual([]);
  });

  it('a dry run says it would purge the conversation artifacts and changes nothing', async () => {
    const orcs = make();
    const tree = agyTree(dir, ID);
    await orcs.register(ID);
    const r = await orcs.remove(ID, { purgeConversation: true, yes: true, dryRun: true });
    expect(r).toMatchObject({ kind: 'dry-run', purge: true, agent: 'agy' });
    expect(r.kind === 'dry-run' && r.message).toContain('purge its conversation artifacts');
    expect(exist(tree).every(Boolean)).toBe(true);
    expect(await orcs.list()).toEqual([ID]);
  });

  it('an id that is not registered is not removed, and nothing is purged', async () => {
    const orcs = make();
    const tree = agyTree(dir, ID);
    expect((await orcs.remove(ID, { purgeConversation: true, yes: true })).kind).toBe('not-registered');
    expect(exist(tree).every(Boolean)).toBe(true);
  });
});

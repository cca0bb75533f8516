// The open door in Orchestrators: an orchestrator conversation of an agent defined outside the package (defineAgent),
// passed in `agents` (or known by the registry), registers, resolves and is purged through a PurgeService that knows it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentDefinition, defineAgent } from '../../../src/agents/contract/agent-definition.js';
import { InvalidIdError } from '../../../src/errors.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { Ports } from '../../../src/ports/index.js';
import { Orchestrators } from '../../../src/purge/orchestrators.js';
import { addOrchestrator, removeOrchestrator } from '../../../src/registry/orchestrators.js';
import { SessionRegistry } from '../../../src/registry/session-registry.js';
import { FakeHerdr } from '../../../src/testing/herdr/fake-herdr.js';
import { VirtualClock } from '../../../src/testing/herdr/virtual-clock.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { notes, writeNote } from '../../helpers/notes-agent.js';

// An outside agent whose ids no built-in agent would take (`slip-` and six lower-case letters or digits).
const { name: _name, store: _store, ...notesFacts } = notes;
const slips: AgentDefinition<'slips'> = defineAgent({
  ...notesFacts,
  store: (ports) => notes.store(ports, notes),
  name: 'slips',
  ownKey: 'slips_session_id_own',
  ids: { shape: 'slip', canonical: (id) => (/^slip-[0-9a-z]{6}$/i.test(id) ? id.toLowerCase() : null) },
});
const SLIP = 'slip-ab12cd';

describe('Orchestrators with outside agents', () => {
  let dir: string;
  let dispose: () => Promise<void>;
  let proc: FakeProcessTable;
  let ports: Ports;
  beforeEach(async () => {
    ({ dir, dispose } = await makeTempDir('mam-orc-door-'));
    proc = new FakeProcessTable([], { self: { pid: 500, argv: ['node', 'mam', 'orc'], env: { HOME: dir } } });
    ports = { fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new VirtualClock() };
  });
  afterEach(async () => {
    await dispose();
  });
  const make = (agents: readonly AgentDefinition<'notes' | 'slips'>[] = [notes, slips]): Orchestrators<'notes' | 'slips'> => new Orchestrators(dir, { ports, agents });

  it("remove + purge + yes removes an outside agent's conversation (resolved from disk) and unregisters it", async () => {
    const id = await writeNote(ports.fs, dir, dir, Date.now());
    const file = join(dir, '.notes', 'sessions', `${id}.json`);
    const orcs = make();
    expect(await orcs.register(id.toUpperCase())).toEqual({ kind: 'registered', id });
    const dry = await orcs.remove(id, { purgeConversation: true, dryRun: true });
    expect(dry).toMatchObject({ kind: 'dry-run', agent: 'notes' });
    const r = await orcs.remove(id, { purgeConversation: true, yes: true });
    expect(r).toMatchObject({ kind: 'removed', id, purge: { kind: 'purged', agent: 'notes', residual: [] } });
    expect(existsSync(file)).toBe(false);
    expect(await orcs.list()).toEqual([]);
  });

  it("an outside agent's conversation still in use: refused (agent named), artifacts and registration kept", async () => {
    const id = await writeNote(ports.fs, dir, dir, Date.now());
    const orcs = make();
    await orcs.register(id);
    proc.add({ pid: 777, argv: ['notes', '--session', id] });
    const r = await orcs.remove(id, { purgeConversation: true, yes: true });
    expect(r).toMatchObject({ kind: 'in-use', agent: 'notes' });
    expect(r.kind === 'in-use' && r.message).toContain('(agent: notes)');
    expect(existsSync(join(dir, '.notes', 'sessions', `${id}.json`))).toBe(true);
    expect(await orcs.list()).toEqual([id]);
  });

  it('an id only an outside agent takes registers (its canonical spelling) and is removed; the agents default to the registry\'s', async () => {
    const registry = new SessionRegistry(dir, { ports, agents: [slips] });
    const orcs = new Orchestrators(dir, { ports, registry });
    expect(await orcs.register(SLIP.toUpperCase())).toEqual({ kind: 'registered', id: SLIP });
    expect(await orcs.register(SLIP)).toEqual({ kind: 'already-registered', id: SLIP });
    expect(await orcs.remove(SLIP.toUpperCase())).toEqual({ kind: 'removed', id: SLIP, purge: null });
    expect(await orcs.list()).toEqual([]);
  });

  it('without the definition such an id is invalid; the message lists the agents known, outside ones included', async () => {
    const plain = new Orchestrators(dir, { ports });
    const r = await plain.register(SLIP);
    expect(r.kind === 'invalid-id' && r.message).toMatch(/^not a conversation id of any agent \(claude, .*opencode[^)]*\)/);
    expect(r.kind === 'invalid-id' && r.message).not.toContain('slips');
    const known = await make().register('slip-');
    expect(known.kind === 'invalid-id' && known.message).toContain(', notes, slips)');
  });

  it('the registry functions take the same agents', () => {
    const draft = { herdr_sessions: [], orchestrator_uuids: [] };
    expect(() => addOrchestrator(draft, SLIP)).toThrow(InvalidIdError);
    expect(addOrchestrator(draft, SLIP.toUpperCase(), { agents: [slips] })).toBe(true);
    expect(draft.orchestrator_uuids).toEqual([SLIP]);
    expect(removeOrchestrator(draft, SLIP.toUpperCase())).toBe(false);
    expect(removeOrchestrator(draft, SLIP.toUpperCase(), { agents: [slips] })).toBe(true);
  });

  it('agents are checked: a registry that does not know them, a built-in name or a name given twice is refused', () => {
    const registry = new SessionRegistry(dir, { ports });
    expect(() => new Orchestrators(dir, { ports, registry, agents: [notes] })).toThrow(/opts\.registry.*does not know agent "notes"/);
    expect(() => new Orchestrators(dir, { ports, agents: [defineAgent({ ...notes, name: 'codex' })] as never })).toThrow(InvalidArgumentError);
    expect(() => new Orchestrators(dir, { ports, agents: [notes, notes] })).toThrow(/given twice/);
  });
});

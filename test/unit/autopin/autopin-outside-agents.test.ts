// The open door in AutoPin, reconcile and the loop's deps: a row of an agent defined outside the package (defineAgent),
// known by the registry (or passed in `agents`), gets its id captured from the agent's store (or herdr's report,
// verified there) and pinned under the definition's own key; a moved conversation is followed as a built-in's is.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentDefinition, defineAgent } from '../../../src/agents/contract/agent-definition.js';
import { AutoPin, autopinLoopDeps, reconcile } from '../../../src/autopin/index.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { SessionRegistry, type SessionRow } from '../../../src/registry/index.js';
import { type AutopinWorld, autopinWorld, EPOCH } from '../../helpers/autopin-kit.js';
import { notes, writeNote } from '../../helpers/notes-agent.js';
import { makeRow } from '../../helpers/registry-fixtures.js';

const J1 = 'a1000001-0000-4000-8000-0000000000f1';
const J2 = 'a1000002-0000-4000-8000-0000000000f2';
const AT = EPOCH * 1000 + 10_000;

// A post-discovered twin of notes: the CLI picks its id, capture finds it in the store. Its conversations may move:
// the store says J1 continues under J2.
const { name: _name, store: _store, ...notesFacts } = notes;
const jots: AgentDefinition<'jots'> = defineAgent({
  ...notesFacts,
  store: (ports) => ({ ...notes.store(ports, notes), currentId: async (id: string) => (id === J1 ? J2 : id) }),
  name: 'jots',
  ownKey: 'jots_session_id_own',
  idLifecycle: 'post_discovered',
  ids: { ...notesFacts.ids, moves: true },
  sessionEnvVars: ['JOTS_SESSION_ID'],
  launch: { args: () => [], resumeArgs: (id) => ['--resume', id] },
});

// A row of an outside agent: its id (or null) under the definition's own key.
function outsideRow(name: string, d: AgentDefinition<string>, cwd: string, over: { ownId?: string; status?: string } = {}): SessionRow {
  const { unknown_id: _u, ...row } = makeRow(name, d.name, cwd, { epoch: EPOCH, ...(over.status === undefined ? {} : { status: over.status }) });
  const id = over.ownId ?? null;
  return { ...row, [d.ownKey]: id, session_id_source: id === null ? 'pending-discovery' : 'discovered', session_id_verified: id !== null } as SessionRow;
}

describe('AutoPin and reconcile with outside agents', () => {
  let w: AutopinWorld;
  let registry: SessionRegistry;
  const rows = (list: SessionRow[]): Promise<void> => registry.update((d) => void (d.herdr_sessions = list));
  const row = async (name: string): Promise<SessionRow | undefined> => (await registry.snapshot()).herdr_sessions.find((r) => r.name === name);
  beforeEach(async () => {
    w = await autopinWorld('door');
    registry = new SessionRegistry(w.ws, { ports: w.ports, agents: [jots, notes] });
  });
  afterEach(async () => {
    registry.close();
    await w.dispose();
  });

  it("AutoPin pins an outside agent's id captured from its store under its own key (the agents: the registry's)", async () => {
    await rows([outsideRow('jots-01', jots, w.ws)]);
    await writeNote(w.ports.fs, w.home, w.ws, AT, J1);
    const r = await new AutoPin(w.ws, { ports: w.ports, home: w.home, registry }).handleCompleted(await w.completedJob('jots-01'), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'pinned', name: 'jots-01', agent: 'jots', id: J1, source: 'disk' });
    expect(await row('jots-01')).toMatchObject({ jots_session_id_own: J1, session_id_source: 'discovered', session_id_verified: true });
  });

  it("herdr's report of an outside agent's id is taken once it verifies in its store", async () => {
    await rows([outsideRow('jots-01', jots, w.ws)]);
    for (const id of [J1, J2]) await writeNote(w.ports.fs, w.home, w.ws, AT, id);
    w.herdr.addAgent({ name: 'jots-01', kind: 'jots', status: 'idle', cwd: w.ws, agentSession: { source: 'herdr:jots', agent: 'jots', kind: 'id', value: J2 } });
    const r = await new AutoPin(w.ws, { ports: w.ports, home: w.home, agents: [jots, notes], registry }).handleCompleted(await w.completedJob('jots-01'), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'pinned', agent: 'jots', id: J2, source: 'herdr' });
  });

  it("a pinned outside agent's conversation that moved is followed to where it continues", async () => {
    await rows([outsideRow('jots-01', jots, w.ws, { ownId: J1 })]);
    for (const id of [J1, J2]) await writeNote(w.ports.fs, w.home, w.ws, AT, id);
    const r = await new AutoPin(w.ws, { ports: w.ports, home: w.home, registry }).handleCompleted(await w.completedJob('jots-01'), { dispatchToken: 't', attempt: 1 });
    expect(r).toMatchObject({ kind: 'pinned', agent: 'jots', id: J2 });
    expect(await row('jots-01')).toMatchObject({ jots_session_id_own: J2, session_id_followed_from: J1 });
  });

  it('reconcile proposes, then pins, the id of a running post-discovered outside row with none; a pre-assigned one is no drift', async () => {
    const a = join(w.ws, 'a');
    mkdirSync(a);
    await rows([outsideRow('jots-a', jots, a), outsideRow('jots-stopped', jots, a, { status: 'stopped' }), outsideRow('notes-a', notes, a)]);
    await writeNote(w.ports.fs, w.home, a, AT, J1);
    const dry = await reconcile(w.ws, { ports: w.ports, home: w.home, registry });
    expect(dry.entries).toEqual([{ name: 'jots-a', agent: 'jots', outcome: 'would-pin', id: J1, source: 'disk' }]);
    // No registry given: the default one is made knowing `agents`.
    const applied = await reconcile(w.ws, { ports: w.ports, home: w.home, agents: [jots, notes], apply: true });
    expect(applied.entries).toEqual([{ name: 'jots-a', agent: 'jots', outcome: 'pinned', id: J1, source: 'disk' }]);
    expect(await row('jots-a')).toMatchObject({ jots_session_id_own: J1, session_id_verified: true });
    expect(await row('jots-stopped')).toMatchObject({ jots_session_id_own: null });
  });

  it('an id another row records under any own key the registry knows is claimed, even of an agent reconcile was not given', async () => {
    await rows([outsideRow('jots-01', jots, w.ws), outsideRow('notes-01', notes, w.ws, { ownId: J1 })]);
    await writeNote(w.ports.fs, w.home, w.ws, AT, J1);
    const r = await reconcile(w.ws, { ports: w.ports, home: w.home, registry, agents: [jots] });
    expect(r.entries).toEqual([{ name: 'jots-01', agent: 'jots', outcome: 'unresolved', reason: expect.stringContaining('claimed-by-other-row'), candidates: [J1] }]);
  });

  it("the loop's deps know the outside agents: the creator's row is found and AutoPin pins it", async () => {
    await rows([outsideRow('jots-01', jots, w.ws)]);
    await writeNote(w.ports.fs, w.home, w.ws, AT, J1);
    const deps = autopinLoopDeps(w.ws, { ports: w.ports, home: w.home, agents: [jots, notes] });
    expect(await deps.sessions.find('jots-01')).toMatchObject({ name: 'jots-01', status: 'running' });
    expect(await deps.autopin.handleCompleted(await w.completedJob('jots-01'), { dispatchToken: 't', attempt: 1 })).toMatchObject({ kind: 'pinned', id: J1 });
  });

  it('agents are checked: a registry that does not know them, or a built-in name, is refused', async () => {
    const plain = new SessionRegistry(w.ws, { ports: w.ports });
    expect(() => new AutoPin(w.ws, { ports: w.ports, home: w.home, registry: plain, agents: [jots] })).toThrow(/opts\.registry.*does not know agent "jots"/);
    await expect(reconcile(w.ws, { ports: w.ports, home: w.home, registry: plain, agents: [jots] })).rejects.toThrow(InvalidArgumentError);
    const clash = [defineAgent({ ...jots, name: 'codex' })] as never;
    expect(() => new AutoPin(w.ws, { ports: w.ports, home: w.home, agents: clash })).toThrow(InvalidArgumentError);
    expect(() => autopinLoopDeps(w.ws, { ports: w.ports, home: w.home, agents: clash })).toThrow(InvalidArgumentError);
    plain.close();
  });
});

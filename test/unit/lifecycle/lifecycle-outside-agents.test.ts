// The open door in the lifecycle: sessions of agents defined outside the package (defineAgent), passed in `agents`, are
// created (launch args and pre-assigned ids from the definition, the id under its own key), onboarded (a post-discovered
// one's id captured from its store) and stopped with a purge through a PurgeService that knows them.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentDefinition, defineAgent } from '../../../src/agents/contract/agent-definition.js';
import type { CreateResult } from '../../../src/lifecycle/create-result.js';
import { launchArgs, preAssignedId } from '../../../src/lifecycle/launch-args.js';
import { SessionLifecycle } from '../../../src/lifecycle/session-lifecycle.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { rowByName } from '../../../src/registry/row-lookup.js';
import { SessionRegistry } from '../../../src/registry/session-registry.js';
import { notes as notesCli } from '../../helpers/notes-agent.js';
import { type LifecycleKit, lifecycleKit } from '../../helpers/lifecycle-kit.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const J1 = '0b000001-0000-4000-8000-0000000000b1';

// herdr starts only the kinds it knows: these agents run as one of them (`launch.herdrKind`).
const notes: AgentDefinition<'notes'> = defineAgent({ ...notesCli, launch: { ...notesCli.launch, herdrKind: 'kimi' } });

// A post-discovered twin of notes: the CLI picks its id, capture finds it in the store.
const { name: _notesName, store: _notesStore, ...notesFacts } = notes;
const jots: AgentDefinition<'jots'> = defineAgent({
  ...notesFacts,
  store: (ports) => notesCli.store(ports, notesCli),
  name: 'jots',
  ownKey: 'jots_session_id_own',
  idLifecycle: 'post_discovered',
  sessionEnvVars: ['JOTS_SESSION_ID'],
  launch: { args: () => ['--fresh'], resumeArgs: (id) => ['--resume', id], herdrKind: 'kimi' },
});

function created<E extends string>(r: CreateResult<E>): Extract<CreateResult<E>, { kind: 'created' }> {
  if (r.kind !== 'created') throw new Error(`expected created, got ${JSON.stringify(r, null, 1)}`);
  return r;
}

describe('SessionLifecycle with outside agents', () => {
  let k: LifecycleKit;
  let registry: SessionRegistry;
  const timeouts = { readyMs: 2_000, captureMs: 3_000, exitMs: 5_000, pollMs: 100 };
  const life = (): SessionLifecycle<'notes' | 'jots'> => new SessionLifecycle(k.ws, { ports: k.ports, registry, agents: [notes, jots], timeouts });
  const note = (id: string, at: number): string => {
    const dir = join(k.home, '.notes', 'sessions');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${id}.json`);
    writeFileSync(file, JSON.stringify({ id, cwd: k.ws, updatedAt: at }));
    return file;
  };
  beforeEach(async () => {
    k = await lifecycleKit();
    registry = new SessionRegistry(k.ws, { ports: k.ports, agents: [notes, jots] });
  });
  afterEach(async () => {
    registry.close();
    await k.dispose();
  });

  it('launch args and pre-assigned ids are read from the definition, for built-ins and outside agents alike', () => {
    expect(launchArgs(notes, 'x')).toEqual(['--session', 'x']);
    expect(preAssignedId(notes)).toMatch(UUID);
    expect(preAssignedId(jots)).toBeNull();
    expect(launchArgs('claude', 'x')).toEqual(['--session-id', 'x']);
  });

  it('a pre-assigned outside agent: its minted id on the argv, recorded under its own key; stop with purge removes its conversation and its row', async () => {
    const r = created(await life().create({ name: 'notes-01', agent: 'notes', role: 'reviewer' }));
    expect(r.id).toMatch(UUID);
    expect(r.onboarding).toMatchObject({ ran: true, id: r.id, source: 'pre-assigned' });
    const start = k.herdr.calls.find((c) => c.op === 'agentStart');
    expect(start?.argv).toEqual(['--session', 'default', 'agent', 'start', 'notes-01', '--kind', 'kimi', '--pane', 'w1:p1', '--', '--session', r.id]);
    const row = rowByName(await registry.snapshot(), 'notes-01');
    expect(row).toMatchObject({ status: 'running', agent: 'notes', notes_session_id_own: r.id, session_id_source: 'assigned', pane: { cmd: 'notes' } });
    const file = note(r.id as string, k.clock.now());
    const stopped = await life().stop('notes-01', { purge: true, yes: true });
    expect(stopped).toMatchObject({ kind: 'purged-and-removed', id: r.id, purge: { kind: 'purged', agent: 'notes' } });
    expect(existsSync(file)).toBe(false);
    expect((await registry.snapshot()).herdr_sessions).toEqual([]);
  });

  it('a post-discovered outside agent: passes the gate, its id captured from its store and pinned under its own key', async () => {
    const started = k.herdr.onStart;
    k.herdr.onStart = (a) => {
      started?.(a);
      note(J1, k.clock.now() + 1_000);
    };
    const r = created(await life().create({ name: 'jots-01', agent: 'jots', role: 'reviewer' }));
    expect(r.id).toBe(J1);
    expect(r.onboarding).toMatchObject({ source: 'disk', id: J1 });
    expect(r.row).toMatchObject({ agent: 'jots', jots_session_id_own: J1, session_id_source: 'discovered', session_id_verified: true });
    expect(k.herdr.calls.find((c) => c.op === 'agentStart')?.argv.slice(-2)).toEqual(['--', '--fresh']);
  });

  it('an outside agent whose kind herdr does not know fails at start (herdr\'s refusal), its pane closed, no row', async () => {
    registry = new SessionRegistry(k.ws, { ports: k.ports, agents: [notesCli] });
    const r = await new SessionLifecycle(k.ws, { ports: k.ports, registry, timeouts }).create({ name: 'n', agent: 'notes' as never, role: 'reviewer' });
    expect(r).toMatchObject({ kind: 'failed', step: 'start', cleanup: { paneClosed: 'w1:p1' } });
    expect(k.herdr.calls.find((c) => c.op === 'agentStart')?.argv).toContain('notes');
    expect((await registry.snapshot()).herdr_sessions).toEqual([]);
  });

  it('a spec naming an agent nobody passed is uncreatable; the built-in lifecycle knows no outside agent', async () => {
    expect(await life().create({ name: 'x', agent: 'other' as never, role: 'reviewer' })).toMatchObject({ kind: 'failed', step: 'validate' });
    const plain = new SessionLifecycle(k.ws, { ports: k.ports, registry: k.registry, timeouts });
    const r = await plain.create({ name: 'x', agent: 'notes' as never, role: 'reviewer' });
    expect(r.kind === 'failed' && r.error.message).toContain('unknown agent "notes"');
    expect(k.herdr.calls).toEqual([]);
  });

  it('the agents default to the registry\'s; a registry that does not know them, or a clashing definition, is refused', async () => {
    const fromRegistry = new SessionLifecycle(k.ws, { ports: k.ports, registry, timeouts });
    expect(created(await fromRegistry.create({ name: 'notes-02', agent: 'notes' as never, role: 'reviewer' })).row).toMatchObject({ agent: 'notes' });
    expect(() => new SessionLifecycle(k.ws, { ports: k.ports, registry: k.registry, agents: [notes] })).toThrow(/does not know agent "notes"/);
    expect(() => new SessionLifecycle(k.ws, { ports: k.ports, agents: [defineAgent({ ...notes, name: 'codex' })] })).toThrow(InvalidArgumentError);
    expect(() => new SessionLifecycle(k.ws, { ports: k.ports, agents: [defineAgent({ ...notes, name: 'mine', ownKey: 'codex_session_id_own' })] })).toThrow(InvalidArgumentError);
  });
});

// The open door in the reset: a ResetPlanner given an agent defined outside the package (defineAgent) in `agents` plans
// its running rows as targets, reads a spec naming it, and runs its reset like a built-in's (stop, purge of the old
// conversation through its store, a new instance with a new id under its own key). Without the definition its row is a
// plan error and a spec naming it is refused.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AgentDefinition, defineAgent } from '../../../src/agents/contract/agent-definition.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { recordedId } from '../../../src/registry/row-agent.js';
import { SessionRegistry } from '../../../src/registry/session-registry.js';
import type { SessionRow } from '../../../src/registry/session-row.js';
import { readResetSpec, ResetPlanner, ResetSpecError, resetSpecText } from '../../../src/reset/index.js';
import { notes as notesCli } from '../../helpers/notes-agent.js';
import { type LifecycleKit, lifecycleKit } from '../../helpers/lifecycle-kit.js';

// herdr starts only the kinds it knows: notes runs as one of them.
const notes: AgentDefinition<'notes'> = defineAgent({ ...notesCli, launch: { ...notesCli.launch, herdrKind: 'kimi' } });
const NA = 'a1000001-0000-4000-8000-00000000000a';
const timeouts = { readyMs: 2_000, captureMs: 3_000, exitMs: 5_000, pollMs: 100 };

describe('ResetPlanner with outside agents', () => {
  let k: LifecycleKit;
  let registry: SessionRegistry;
  const planner = (agents?: readonly AgentDefinition<string>[]): ResetPlanner => new ResetPlanner(k.ws, { ports: k.ports, lifecycle: { home: k.home, timeouts }, ...(agents === undefined ? {} : { agents }) });
  const note = (id: string): string => {
    const dir = join(k.home, '.notes', 'sessions');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${id}.json`);
    writeFileSync(file, JSON.stringify({ id, cwd: k.ws, updatedAt: k.clock.now() - 60_000 }));
    return file;
  };
  beforeEach(async () => {
    k = await lifecycleKit();
    registry = new SessionRegistry(k.ws, { ports: k.ports, agents: [notes] });
    // A running notes session in the control root: its agent in herdr and the process table, its row, its conversation.
    const seeded = k.herdr.addAgent({ name: 'notes-01', kind: 'kimi', cwd: k.ws, pid: 4242, argv: ['kimi', '--session', NA] });
    k.proc.add({ pid: 4242, argv: ['kimi', '--session', NA] });
    const row = {
      name: 'notes-01', status: 'running', role: 'reviewer', agent: 'notes', herdr_server: 'default', herdr_session: 'default', herdr_workspace: 'ws',
      herdr_session_created_at: '2025-12-31T00:00:00Z', herdr_session_epoch: Math.floor(k.clock.now() / 1000) - 3600, notes_session_id_own: NA,
      session_id_source: 'assigned', session_id_verified: false, pane: { cwd: k.ws, pid: 4242, cmd: 'notes' }, herdr_pane_id: seeded.paneId,
    } as unknown as SessionRow;
    await registry.update((d) => void d.herdr_sessions.push(row));
  });
  afterEach(async () => {
    registry.close();
    await k.dispose();
  });

  it('plans the outside row as a target with its old id; without the definition it is a plan error', async () => {
    expect(await planner([notes]).plan()).toMatchObject({ targets: [{ name: 'notes-01', agent: 'notes', oldId: NA }], errors: [] });
    const plain = await planner().plan();
    expect(plain.targets).toEqual([]);
    expect(plain.errors).toMatchObject([{ name: 'notes-01' }]);
    expect(plain.errors[0]?.problem).toContain('unknown agent');
  });

  it('runs the reset: the old conversation purged through its store, a new instance with a new id under its own key', async () => {
    const old = note(NA);
    const out = await planner([notes]).run({ yes: true, callerEnv: {} });
    expect(out.exitCode, `${out.table}\n${out.message}`).toBe(0);
    expect(existsSync(old)).toBe(false);
    const rows = (await registry.snapshot()).herdr_sessions;
    expect(rows).toHaveLength(1);
    const id = recordedId(rows[0] as SessionRow, { agents: [notes] });
    expect(id).not.toBeNull();
    expect(id).not.toBe(NA);
    expect(rows[0]).toMatchObject({ name: 'notes-01', agent: 'notes', status: 'running', role: 'reviewer', session_id_source: 'assigned' });
    expect(k.herdr.calls.filter((c) => c.op === 'agentStart').map((c) => c.argv.slice(-2))).toEqual([['--session', id]]);
  });

  it('the reset spec may name the outside agent only when it is passed', async () => {
    const spec = { version: 1 as const, workspace: k.ws, writtenAt: '2026-01-01T00:00:00Z', agents: [{ name: 'notes-01', agent: 'notes' as never, role: 'reviewer', herdrServer: 'default', herdrWorkspace: 'ws', oldId: NA, oldCreatedAt: '2025-12-31T00:00:00Z' }] };
    writeFileSync(join(k.ws, '.mam', 'reset-spec.json'), resetSpecText(spec));
    expect((await readResetSpec(k.ports.fs, k.ws, { agents: [notes] }))?.agents[0]).toMatchObject({ agent: 'notes', oldId: NA });
    await expect(readResetSpec(k.ports.fs, k.ws)).rejects.toThrow(ResetSpecError);
    expect((await planner([notes]).entries()).map((e) => [e.target.name, e.state, e.rowId])).toEqual([['notes-01', 'pending', NA]]);
    await expect(planner().entries()).rejects.toThrow(/unknown agent "notes"/);
  });

  it('refuses clashing definitions', () => {
    expect(() => planner([defineAgent({ ...notes, name: 'claude' })])).toThrow(InvalidArgumentError);
    expect(() => planner([notes, notes])).toThrow(InvalidArgumentError);
  });
});

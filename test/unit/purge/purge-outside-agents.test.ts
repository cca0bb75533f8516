// The open door: an agent defined outside the package (defineAgent) passed to PurgeService and inspectStores by
// `agents` — planned, purged, resolved by `auto` after the built-ins, refused while held, and checked (an unknown name,
// a built-in's name, a name given twice).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnknownAgentError } from '../../../src/errors.js';
import { AGENT_NAMES } from '../../../src/ids/agent-names.js';
import { inspectStores } from '../../../src/inspect/inspect-stores.js';
import { InvalidArgumentError } from '../../../src/invalid-argument-error.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { PurgeService } from '../../../src/purge/purge-service.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { notes, writeNote } from '../../helpers/notes-agent.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

async function stage(): Promise<{ home: string; workspace: string; id: string; file: string }> {
  const root = mkdtempSync(join(tmpdir(), 'mam-door-'));
  roots.push(root);
  const home = join(root, 'home');
  const workspace = join(root, 'ws');
  mkdirSync(home);
  mkdirSync(workspace);
  const id = await writeNote(nodePorts().fs, home, workspace, Date.now());
  return { home, workspace, id, file: join(home, '.notes', 'sessions', `${id}.json`) };
}

const quiet = (): { proc: FakeProcessTable } => ({ proc: new FakeProcessTable() });

describe('PurgeService with outside agents', () => {
  it('plans (changing nothing), then purges a named outside agent', async () => {
    const s = await stage();
    const service = new PurgeService({ ports: quiet(), agents: [notes] });
    const plan = await service.plan('notes', s.id, { home: s.home, workspace: s.workspace });
    expect(plan).toMatchObject({ agent: 'notes', verdict: 'purge' });
    expect(plan.artifacts.map((a) => (a.kind === 'rows' ? a.db : a.path))).toEqual([s.file]);
    expect(existsSync(s.file)).toBe(true);
    const result = await service.execute(plan);
    expect(result).toMatchObject({ kind: 'purged', agent: 'notes', residual: [] });
    expect(existsSync(s.file)).toBe(false);
  });

  it('auto asks the outside agents after the built-ins; resolve names it', async () => {
    const s = await stage();
    const service = new PurgeService({ ports: quiet(), agents: [notes] });
    expect(await service.resolve(s.id, { home: s.home, workspace: s.workspace })).toBe('notes');
    const result = await service.purge('auto', s.id, { home: s.home });
    expect(result).toMatchObject({ kind: 'purged', agent: 'notes' });
    expect(existsSync(s.file)).toBe(false);
    expect(await service.purge('auto', s.id, { home: s.home })).toEqual({ kind: 'unresolved', agent: null });
  });

  it('without the definition, auto does not find it', async () => {
    const s = await stage();
    expect(await new PurgeService({ ports: quiet() }).purge('auto', s.id, { home: s.home })).toEqual({ kind: 'unresolved', agent: null });
    expect(existsSync(s.file)).toBe(true);
  });

  it('a live process naming the id refuses the purge, removing nothing', async () => {
    const s = await stage();
    const proc = new FakeProcessTable([{ pid: 4242, argv: ['notes', '--resume', s.id] }]);
    const service = new PurgeService({ ports: { proc }, agents: [notes] });
    const result = await service.purge('notes', s.id, { home: s.home });
    expect(result).toMatchObject({ kind: 'in-use', agent: 'notes', holders: [{ pid: 4242 }] });
    expect(existsSync(s.file)).toBe(true);
  });

  it('an id the definition finds implausible reaches no path: unresolved', async () => {
    const s = await stage();
    const service = new PurgeService({ ports: quiet(), agents: [notes] });
    expect((await service.plan('notes', 'not-a-uuid', { home: s.home })).verdict).toBe('unresolved');
  });

  it('an unknown name throws UnknownAgentError listing the outside agents too', async () => {
    const s = await stage();
    const service = new PurgeService({ ports: quiet(), agents: [notes] });
    // @ts-expect-error -- not a name the service knows
    const err = await service.plan('nope', s.id, { home: s.home }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnknownAgentError);
    expect((err as Error).message).toContain('notes');
  });

  it('a built-in name, a name given twice, or something that is no definition throws InvalidArgumentError naming opts.agents', () => {
    const claude = { ...notes, name: 'claude' as const };
    for (const agents of [[notes, notes], [claude], [{ name: 'x' }]] as never[][]) {
      let err: unknown;
      try {
        new PurgeService({ agents });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).data.param).toMatch(/^opts\.agents/);
    }
  });
});

describe('inspectStores with outside agents', () => {
  it('reports the outside stores after the built-ins', async () => {
    const s = await stage();
    const reports = await inspectStores({ home: s.home, ports: quiet(), agents: [notes] });
    expect(reports.at(-1)).toMatchObject({ agent: 'notes', presence: 'present', known: true, counts: { sessions: 1 } });
    expect(reports.map((r) => r.agent)).toEqual([...AGENT_NAMES, 'notes']);
  });

  it('a name given twice throws InvalidArgumentError naming opts.agents', async () => {
    const s = await stage();
    await expect(inspectStores({ home: s.home, agents: [notes, notes] })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', data: { param: 'opts.agents' } });
  });
});

// A store built with `pathPurge` and made an adapter by `createAdapter`: a failed row delete is reported, never
// swallowed (what BaseAdapter's row handling proved, now of the composition every agent shares).
import { describe, expect, it } from 'vitest';
import { defineAgent } from '../../../src/agents/contract/agent-definition.js';
import { createAdapter } from '../../../src/agents/contract/create-adapter.js';
import { pathPurge } from '../../../src/agents/contract/path-purge.js';
import type { AgentAdapter, HomeDiscoveryContext } from '../../../src/agents/types.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import type { Artifact } from '../../../src/purge/artifact.js';
import { strs } from '../../helpers/artifact-strings.js';

const ID = 'a7800001-0000-4000-8000-000000000001';
// A home that exists (adapters refuse one that does not): the filesystem root; nothing is written there.
const H = '/';
const DB = '/h/.rows/state.db';
const ctx: HomeDiscoveryContext = { workspace: '/w', home: H };

// An agent whose only artifacts are rows of one table, with failures to inject (named grok: the messages name it).
function rowsAgent(): { a: AgentAdapter<'grok'>; state: { rows: number; deleteFails: unknown; readFails: unknown } } {
  const state = { rows: 2, deleteFails: null as unknown, readFails: null as unknown };
  const ports = nodePorts();
  const rowsOf = async (): Promise<Artifact[]> => {
    if (state.readFails !== null) throw state.readFails;
    return state.rows > 0 ? [{ kind: 'rows', db: DB, table: 'messages', column: 'session_id', count: state.rows }] : [];
  };
  const def = defineAgent({
    name: 'grok',
    ownKey: 'grok_session_id_own',
    idLifecycle: 'pre_assigned',
    ids: { shape: 'uuid', canonical: (id) => (/^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : null) },
    sessionEnvVars: [],
    launch: { args: () => [], resumeArgs: (id) => [id], mintId: () => ID },
    store: () => ({
      discover: async () => [],
      verifyMany: async (q) => q.map(() => false),
      holders: async () => [],
      mentions: async () => [],
      inspect: async () => ({ agent: 'grok', presence: 'absent', root: null, layout: null, known: null, counts: {}, problems: [] }),
      ...pathPurge(ports.fs, {
        agent: 'grok',
        artifactPaths: async () => [],
        dbRows: rowsOf,
        purgeDbRows: async () => {
          if (state.deleteFails !== null) throw state.deleteFails;
          const n = state.rows;
          state.rows = 0;
          return [{ kind: 'rows', db: DB, table: 'messages', column: 'session_id', count: n }];
        },
      }),
    }),
  });
  return { a: createAdapter(def, ports), state };
}

describe('pathPurge + createAdapter: a failed row delete is reported, never swallowed', () => {
  it('a delete that succeeds leaves no residual', async () => {
    const { a } = rowsAgent();
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([`${DB} (messages.session_id: 2 rows)`]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([]);
  });

  it('a delete that fails: the rows that stay are residual (naming the db and table), with why they stayed', async () => {
    const { a, state } = rowsAgent();
    state.deleteFails = new Error('database is locked');
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([
      `${DB} (messages.session_id: 2 rows)`,
      '/ (grok database rows could not be deleted: database is locked)',
    ]);
  });

  it('the purge report says the same without a second call', async () => {
    const { a, state } = rowsAgent();
    state.deleteFails = new Error('database is locked');
    const report = await a.purge?.(ID, ctx);
    expect(strs(report?.removed ?? [])).toEqual([]);
    expect(strs(report?.residual ?? [])).toEqual([`${DB} (messages.session_id: 2 rows)`, '/ (grok database rows could not be deleted: database is locked)']);
  });

  it('a delete that fails and a row check that fails too: the residual says both, it is not empty', async () => {
    const { a, state } = rowsAgent();
    state.deleteFails = new Error('file is not a database');
    state.readFails = new Error('file is not a database');
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([
      '/ (grok database rows could not be checked: file is not a database)',
      '/ (grok database rows could not be deleted: file is not a database)',
    ]);
    expect(await a.hasArtifacts(ID, ctx)).toBe(true);
  });

  it('a rejection that is no Error (a null-prototype object) is described without throwing', async () => {
    const { a, state } = rowsAgent();
    state.deleteFails = Object.create(null);
    state.readFails = Object.assign(Object.create(null), { message: 'SQLITE_CORRUPT' });
    await expect(a.purgeArtifacts(ID, ctx)).resolves.toEqual([]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([
      '/ (grok database rows could not be checked: SQLITE_CORRUPT)',
      '/ (grok database rows could not be deleted: [object])',
    ]);
  });

  it('a retry that succeeds clears the failure; rows deleted by someone else since leave no note', async () => {
    const { a, state } = rowsAgent();
    state.deleteFails = new Error('database is locked');
    strs(await a.purgeArtifacts(ID, ctx));
    state.deleteFails = null;
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([`${DB} (messages.session_id: 2 rows)`]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([]);
    const b = rowsAgent();
    b.state.deleteFails = new Error('database is locked');
    strs(await b.a.purgeArtifacts(ID, ctx));
    b.state.rows = 0;
    expect(strs(await b.a.residualArtifacts(ID, ctx))).toEqual([]);
  });
});

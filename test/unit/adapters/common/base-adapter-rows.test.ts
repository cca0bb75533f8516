import { describe, expect, it } from 'vitest';
import type { ArtifactPath } from '../../../../src/agents/common/artifacts.js';
import { BaseAdapter } from '../../../../src/agents/common/base-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import type { Artifact } from '../../../../src/purge/artifact.js';
import { strs } from '../../../helpers/artifact-strings.js';

const ID = 'a7800001-0000-4000-8000-000000000001';
// A home that exists (adapters refuse one that does not): the filesystem root; nothing is written there.
const H = '/';
const DB = '/h/.rows/state.db';
const ctx: HomeDiscoveryContext = { workspace: '/w', home: H };

// An adapter whose only artifacts are rows of one table, with failures to inject.
class RowsAdapter extends BaseAdapter {
  readonly name = 'grok' as const;
  readonly idLifecycle = 'pre_assigned' as const;
  rows = 2;
  deleteFails: unknown = null;
  readFails: unknown = null;

  constructor() {
    super(nodePorts());
  }
  async discover(): Promise<string[]> {
    return [];
  }
  async verifyArtifact(): Promise<boolean> {
    return false;
  }
  protected async artifactPaths(): Promise<ArtifactPath[]> {
    return [];
  }
  protected override async dbRows(): Promise<Artifact[]> {
    if (this.readFails !== null) throw this.readFails;
    return this.rows > 0 ? [{ kind: 'rows', db: DB, table: 'messages', column: 'session_id', count: this.rows }] : [];
  }
  protected override async purgeDbRows(): Promise<Artifact[]> {
    if (this.deleteFails !== null) throw this.deleteFails;
    const n = this.rows;
    this.rows = 0;
    return [{ kind: 'rows', db: DB, table: 'messages', column: 'session_id', count: n }];
  }
}

describe('BaseAdapter: a failed row delete is reported, never swallowed', () => {
  it('a delete that succeeds leaves no residual', async () => {
    const a = new RowsAdapter();
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([`${DB} (messages.session_id: 2 rows)`]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([]);
  });

  it('a delete that fails: the rows that stay are residual (naming the db and table), with why they stayed', async () => {
    const a = new RowsAdapter();
    a.deleteFails = new Error('database is locked');
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([
      `${DB} (messages.session_id: 2 rows)`,
      '/ (grok database rows could not be deleted: database is locked)',
    ]);
  });

  it('a delete that fails and a row check that fails too: the residual says both, it is not empty', async () => {
    const a = new RowsAdapter();
    a.deleteFails = new Error('file is not a database');
    a.readFails = new Error('file is not a database');
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([
      '/ (grok database rows could not be checked: file is not a database)',
      '/ (grok database rows could not be deleted: file is not a database)',
    ]);
    expect(await a.hasArtifacts(ID, ctx)).toBe(true);
  });

  it('a rejection that is no Error (a null-prototype object) is described without throwing', async () => {
    const a = new RowsAdapter();
    a.deleteFails = Object.create(null);
    a.readFails = Object.assign(Object.create(null), { message: 'SQLITE_CORRUPT' });
    await expect(a.purgeArtifacts(ID, ctx)).resolves.toEqual([]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([
      '/ (grok database rows could not be checked: SQLITE_CORRUPT)',
      '/ (grok database rows could not be deleted: [object])',
    ]);
  });

  it('a retry that succeeds clears the failure; rows deleted by someone else since leave no note', async () => {
    const a = new RowsAdapter();
    a.deleteFails = new Error('database is locked');
    strs(await a.purgeArtifacts(ID, ctx));
    a.deleteFails = null;
    expect(strs(await a.purgeArtifacts(ID, ctx))).toEqual([`${DB} (messages.session_id: 2 rows)`]);
    expect(strs(await a.residualArtifacts(ID, ctx))).toEqual([]);
    const b = new RowsAdapter();
    b.deleteFails = new Error('database is locked');
    strs(await b.purgeArtifacts(ID, ctx));
    b.rows = 0;
    expect(strs(await b.residualArtifacts(ID, ctx))).toEqual([]);
  });
});

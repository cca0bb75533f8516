import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HermesAdapter } from '../../../src/agents/hermes/hermes-adapter.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { freshId, portsWith } from '../../helpers/adapter-agy-files.js';
import { HERMES_SCHEMA, sessionSql, writeHermesDb } from '../../helpers/adapter-hermes-stage.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;
let wsA: string;
let wsB: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-hermes-disc-'));
  home = join(dir, 'home');
  wsA = join(dir, 'ws-a');
  wsB = join(dir, 'ws-b');
  for (const d of [home, wsA, wsB]) mkdirSync(d);
});
afterEach(() => dispose());

const hermes = () => new HermesAdapter(portsWith(new FakeProcessTable([{ pid: 1, argv: ['init'] }])));
const dbOf = (h: string) => join(h, '.hermes', 'state.db');

describe('hermes discover', () => {
  it('identity: post-discovered uuid agent exporting HERMES_SESSION_ID', () => {
    const h = hermes();
    expect([h.name, h.ownKey, h.idLifecycle, h.sessionEnvVar]).toEqual(['hermes', 'hermes_conversation_id_own', 'post_discovered', 'HERMES_SESSION_ID']);
  });

  it('lists the sessions of this cwd started at or after the epoch, newest first', async () => {
    const [old, mid, recent, other] = [freshId(), freshId(), freshId(), freshId()];
    writeHermesDb(dbOf(home), [
      ...HERMES_SCHEMA,
      ...sessionSql(mid, wsA, 1_500_000.5, 1),
      ...sessionSql(old, wsA, 1_000_000, 0),
      ...sessionSql(recent, wsA, 2_000_000, 2),
      ...sessionSql(other, wsB, 2_500_000, 1),
      ...sessionSql('not-a-uuid', wsA, 3_000_000, 1),
    ]);
    expect(await hermes().discover({ workspace: wsA, home: home })).toEqual([recent, mid, old]);
    expect(await hermes().discover({ workspace: wsA, home: home, epoch: 1_500_000 })).toEqual([recent, mid]);
    expect(await hermes().discover({ workspace: wsA, home: home, epoch: 1_500_001 })).toEqual([recent]);
    expect(await hermes().discover({ workspace: wsB, home: home })).toEqual([other]);
  });

  it('reads a cwd through a link, upper-case ids lower-cased, and started_at stored as text', async () => {
    const id = freshId();
    const link = join(dir, 'ws-link');
    symlinkSync(wsA, link);
    writeHermesDb(dbOf(home), [...HERMES_SCHEMA, `INSERT INTO sessions VALUES ('${id.toUpperCase()}', '${link}', '1700000000.25', 't')`]);
    expect(await hermes().discover({ workspace: wsA, home: home, epoch: 1_700_000_000 })).toEqual([id]);
    expect(await hermes().verifyArtifact(id, { workspace: wsA, home: home })).toBe(true);
  });

  it('a session without a started_at is listed without an epoch, never with one', async () => {
    const id = freshId();
    writeHermesDb(dbOf(home), [...HERMES_SCHEMA, `INSERT INTO sessions (id, cwd) VALUES ('${id}', '${wsA}')`]);
    expect(await hermes().discover({ workspace: wsA, home: home })).toEqual([id]);
    expect(await hermes().discover({ workspace: wsA, home: home, epoch: 0 })).toEqual([]);
  });

  it('no database, a garbage database or a database without sessions(id, cwd): nothing', async () => {
    expect(await hermes().discover({ workspace: wsA, home: home })).toEqual([]);
    writeHermesDb(dbOf(home), ['CREATE TABLE conversations (id TEXT, workspace TEXT)']);
    expect(await hermes().discover({ workspace: wsA, home: home })).toEqual([]);
  });

  it('HERMES_HOME moves the root when the context carries it', async () => {
    const id = freshId();
    const alt = join(dir, 'hermes-home');
    writeHermesDb(join(alt, 'state.db'), [...HERMES_SCHEMA, ...sessionSql(id, wsA, 1, 0)]);
    expect(await hermes().discover({ workspace: wsA, home: home })).toEqual([]);
    expect(await hermes().discover({ workspace: wsA, home: home, env: { HERMES_HOME: alt } })).toEqual([id]);
    expect(await hermes().discover({ workspace: wsA, home: home, env: { HERMES_HOME: 'relative/dir' } })).toEqual([]);
  });
});

describe('hermes verifyArtifact', () => {
  it('a row of this cwd; discover mode never accepts an id another row records', async () => {
    const [mine, theirs] = [freshId(), freshId()];
    writeHermesDb(dbOf(home), [...HERMES_SCHEMA, ...sessionSql(mine, wsA, 1, 1), ...sessionSql(theirs, wsB, 1, 1)]);
    const ctx = { workspace: wsA, home: home };
    expect(await hermes().verifyArtifact(mine, ctx)).toBe(true);
    expect(await hermes().verifyArtifact(mine.toUpperCase(), ctx, 'discover')).toBe(true);
    expect(await hermes().verifyArtifact(theirs, ctx)).toBe(false);
    expect(await hermes().verifyArtifact(theirs, ctx, 'discover')).toBe(false);
    expect(await hermes().verifyArtifact(freshId(), ctx)).toBe(false);
    expect(await hermes().verifyArtifact(mine, { ...ctx, siblingClaimedIds: [mine] }, 'discover')).toBe(false);
    expect(await hermes().verifyArtifact(mine, { ...ctx, siblingClaimedIds: [mine] }, 'verify')).toBe(true);
  });

  it('capture: exactly one verified, newer, unclaimed session', async () => {
    const [a, b] = [freshId(), freshId()];
    writeHermesDb(dbOf(home), [...HERMES_SCHEMA, ...sessionSql(a, wsA, 100, 1), ...sessionSql(b, wsA, 200, 1)]);
    const row = { name: 'h', status: 'running' as const, agent: 'hermes' as const, herdr_session_epoch: 150 };
    const ctx = { workspace: wsA, home: home };
    expect(await hermes().captureActiveSessionId(row, ctx)).toEqual({ kind: 'captured', id: b });
    expect(await hermes().captureActiveSessionId({ ...row, herdr_session_epoch: 50 }, ctx)).toMatchObject({ kind: 'none', reason: 'ambiguous' });
    expect(await hermes().captureActiveSessionId(row, { ...ctx, siblingClaimedIds: [b] })).toMatchObject({ kind: 'none', reason: 'not-newer' });
    expect(await hermes().captureActiveSessionId({ ...row, herdr_session_epoch: 300 }, ctx)).toMatchObject({ kind: 'none', reason: 'not-newer' });
  });
});

// The opencode in-use check against REAL processes: a child naming the id on its command line, a child holding the shared
// database open with the id on no command line, the background service (`opencode serve --service`) holding it, and the
// caller's own OPENCODE_SESSION_ID. A purge of the upper-case twin of a live id reaches nothing.
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { sesId, v1Schema, v1SessionSql, writeDb } from '../../../helpers/adapter-opencode-db.js';
import { installFakeOpencode } from '../../../helpers/adapter-opencode-fake-cli.js';
import { startChild, startSleeper, stopAll } from '../../../helpers/proc-children.js';
import { strs } from '../../../helpers/artifact-strings.js';

let root: string;
let db: string;
let ctx: HomeDiscoveryContext;
let fakeBin: string;
const ID = sesId(1);
const OTHER = sesId(2);
const adapter = new OpencodeAdapter(nodePorts());

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-inuse-')));
  const home = join(root, 'home');
  const ws = join(root, 'ws');
  mkdirSync(join(home, '.local/share/opencode'), { recursive: true });
  mkdirSync(ws);
  db = join(home, '.local/share/opencode/opencode.db');
  writeDb(db, [...v1Schema(), ...v1SessionSql({ id: ID, directory: ws, created: 1 }), ...v1SessionSql({ id: OTHER, directory: ws, created: 2 })]);
  // The fake opencode lives outside the agent PATH: it plays the processes, it is not asked for `debug paths`.
  fakeBin = installFakeOpencode(join(root, 'procs'), { spyLog: join(root, 'spy.log') });
  mkdirSync(join(root, 'empty-bin'));
  ctx = { workspace: ws, home: home, env: { HOME: home, PATH: join(root, 'empty-bin') } };
});
afterEach(() => stopAll());
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('real processes', () => {
  it('nothing live: not in use', async () => {
    expect(await adapter.inUseHolders(ID, ctx)).toEqual([]);
  });

  it('a child naming the id on its command line', async () => {
    const child = await startSleeper({ marker: ID });
    const holders = await adapter.inUseHolders(ID, ctx);
    expect(holders.filter((h) => h.pid === child.pid).map((h) => h.signal)).toEqual(['command-line']);
    expect(await adapter.conversationInUse(OTHER, ctx)).toBe(false);
  });

  it('a child holding the database open with the id on no command line', async () => {
    const child = await startSleeper({ hold: db });
    const holders = await adapter.inUseHolders(OTHER, ctx);
    expect(holders.map((h) => [h.pid, h.signal, h.detail])).toEqual([[child.pid, 'open-file', db]]);
  });

  it('the background service holding the database does not count; an opencode TUI holding it does', async () => {
    const env = { ...process.env, MAM_TEST_HOLD: db };
    await startChild(fakeBin, ['serve', '--service'], { env });
    expect(await adapter.conversationInUse(ID, ctx)).toBe(false);
    const tui = await startChild(fakeBin, ['--auto', '--standalone'], { env });
    expect((await adapter.inUseHolders(ID, ctx)).map((h) => h.pid)).toEqual([tui.pid]);
  });

  it("the caller's own OPENCODE_SESSION_ID (a purge run from the session's tool shell)", async () => {
    const inSession = new OpencodeAdapter(nodePorts({ env: { ...process.env, OPENCODE_SESSION_ID: ID } }));
    expect((await inSession.inUseHolders(ID, ctx)).map((h) => h.signal)).toEqual(['session-env']);
    expect(await inSession.conversationInUse(OTHER, ctx)).toBe(false);
  });

  it('the upper-case twin of a live id reaches nothing, and the live id is in use', async () => {
    await startSleeper({ marker: ID });
    const upper = ID.toUpperCase();
    expect(strs(await adapter.purgeArtifacts(upper, ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(upper, ctx)).toBe(false);
    expect(strs(await adapter.residualArtifacts(upper, ctx))).toEqual([]);
    expect(await adapter.conversationInUse(ID, ctx)).toBe(true);
    expect(await adapter.hasArtifacts(ID, ctx)).toBe(true);
  });
});

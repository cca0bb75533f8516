// Linked directories and the legacy JSON storage (OpenCode ≤ 1.1, kept by migrated homes): a data dir that is itself a
// link is fine; a key dir that links outside is not followed, its path stays residual and still counts as an artifact.
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { dumpRows, sesId, v1Schema, v1SessionSql, writeDb } from '../../../helpers/adapter-opencode-db.js';
import { hashTree } from '../../../helpers/adapter-opencode-stage.js';
import { strs } from '../../../helpers/artifact-strings.js';

const adapter = new OpencodeAdapter(nodePorts());
let root: string;
let n = 0;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'mam-oc-links-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ID = sesId(5);
const KEEP = sesId(6);
const MSG = `msg_${ID.slice(4)}`;

function put(path: string, text = '{}'): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

// Legacy storage for ID and KEEP under `data`; returns ID's own paths.
function legacy(data: string, project = 'global'): string[] {
  const s = join(data, 'storage');
  const mine = [join(s, 'part', MSG, 'prt_1.json'), join(s, 'message', ID, `${MSG}.json`), join(s, 'session_diff', `${ID}.json`), join(s, 'todo', `${ID}.json`), join(s, 'share', `${ID}.json`), join(s, 'session', project, `${ID}.json`)];
  for (const p of mine) put(p);
  for (const p of [join(s, 'message', KEEP, `msg_${KEEP.slice(4)}.json`), join(s, 'todo', `${KEEP}.json`), join(s, 'session', project, `${KEEP}.json`)]) put(p);
  return mine;
}

function setup(linkData: boolean): { ctx: HomeDiscoveryContext; data: string; home: string } {
  const base = join(root, `c${n++}`);
  const home = join(base, 'home');
  const ws = join(base, 'ws');
  mkdirSync(ws, { recursive: true });
  mkdirSync(join(home, '.local/share'), { recursive: true });
  const data = join(home, '.local/share/opencode');
  if (linkData) {
    mkdirSync(join(base, 'real-data'));
    symlinkSync(join(base, 'real-data'), data);
  } else mkdirSync(data);
  writeDb(join(data, 'opencode.db'), [...v1Schema(), ...v1SessionSql({ id: ID, directory: ws, created: 1 }), ...v1SessionSql({ id: KEEP, directory: ws, created: 2 })]);
  mkdirSync(join(base, 'bin'));
  return { ctx: { workspace: ws, home: home, env: { HOME: home, PATH: join(base, 'bin') } }, data, home };
}

describe('legacy JSON storage', () => {
  it('purge removes the session file, message dir, parts and keyed files; the other session keeps all of its own', async () => {
    const { ctx, data } = setup(false);
    const mine = legacy(data);
    const keep = hashTree(join(data, 'storage'), (rel) => rel.includes(ID) || rel.includes(MSG));
    const purged = strs(await adapter.purgeArtifacts(ID, ctx));
    const s = join(data, 'storage');
    expect(purged).toEqual(expect.arrayContaining([join(s, 'part', MSG), join(s, 'message', ID), join(s, 'session_diff', `${ID}.json`), join(s, 'todo', `${ID}.json`), join(s, 'share', `${ID}.json`), join(s, 'session', 'global', `${ID}.json`)]));
    // The session file, which ties the rest to the conversation, goes last.
    expect(purged[purged.length - 1]).toBe(join(s, 'session', 'global', `${ID}.json`));
    for (const p of mine) expect(existsSync(p), p).toBe(false);
    expect(hashTree(join(data, 'storage'))).toEqual(keep);
    expect(strs(await adapter.residualArtifacts(ID, ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(ID, ctx)).toBe(false);
    expect(await adapter.hasArtifacts(KEEP, ctx)).toBe(true);
  });
});

describe('linked directories', () => {
  it('a data dir that is itself a link is fine: rows and files are purged through it', async () => {
    const { ctx, data } = setup(true);
    legacy(data);
    const purged = strs(await adapter.purgeArtifacts(ID, ctx));
    expect(purged).toContain(`${join(data, 'opencode.db')} (session.id: 1 rows)`);
    expect(purged).toContain(join(data, 'storage', 'session', 'global', `${ID}.json`));
    expect(strs(await adapter.residualArtifacts(ID, ctx))).toEqual([]);
    expect(dumpRows(join(data, 'opencode.db')).some((r) => r.includes(KEEP))).toBe(true);
  });

  it('a project key dir that links outside is not followed: the file behind it stays, is residual, and still counts', async () => {
    const { ctx, data, home } = setup(false);
    const outside = join(home, '..', 'outside-project');
    mkdirSync(outside);
    put(join(outside, `${ID}.json`), 'precious');
    mkdirSync(join(data, 'storage', 'session'), { recursive: true });
    symlinkSync(outside, join(data, 'storage', 'session', 'linked'));
    const behind = join(data, 'storage', 'session', 'linked', `${ID}.json`);
    const purged = strs(await adapter.purgeArtifacts(ID, ctx));
    expect(purged).not.toContain(behind);
    expect(existsSync(join(outside, `${ID}.json`))).toBe(true);
    expect(strs(await adapter.residualArtifacts(ID, ctx))).toEqual([behind]);
    expect(await adapter.hasArtifacts(ID, ctx)).toBe(true);
  });

  it('a message dir that links outside is not listed for part dirs, and is itself left as residual', async () => {
    const { ctx, data, home } = setup(false);
    const outside = join(home, '..', 'outside-messages');
    put(join(outside, `${MSG}.json`));
    put(join(data, 'storage', 'part', MSG, 'prt_1.json'));
    mkdirSync(join(data, 'storage', 'message'), { recursive: true });
    symlinkSync(outside, join(data, 'storage', 'message', ID));
    strs(await adapter.purgeArtifacts(ID, ctx));
    // The parts are tied to the session only through a message dir that was not followed: they stay.
    expect(existsSync(join(data, 'storage', 'part', MSG, 'prt_1.json'))).toBe(true);
    expect(existsSync(join(outside, `${MSG}.json`))).toBe(true);
    // A leaf link is removed as the link alone.
    expect(existsSync(join(data, 'storage', 'message', ID))).toBe(false);
  });
});

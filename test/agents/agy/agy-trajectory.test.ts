import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agyUriPath, decodeAgyTrajectory, readAgyTrajectory } from '../../../src/agents/agy/agy-trajectory.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import { agyConversationSql, encodeProto, trajectoryBlob } from '../../helpers/adapter-agy-proto.js';
import { makeTempDir } from '../../helpers/fs-temp.js';

let dir: string;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-agy-traj-'));
});
afterEach(() => dispose());

const PARENT = 'a2a2a2a2-1111-4222-8333-0000a2a2a2a2';
const text = (s: string) => new TextEncoder().encode(s);

describe('agy workspace record (CortexTrajectoryMetadata)', () => {
  it('reads field 1 → 1 and field 7 as file:// paths, field 5 as the parent and field 17 as the depth', () => {
    expect(decodeAgyTrajectory(trajectoryBlob({ workspaces: ['/w/a'], parent: PARENT.toUpperCase(), depth: 2 }))).toEqual({ recorded: true, workspaces: ['/w/a'], parent: PARENT, depth: 2 });
    const only7 = encodeProto([{ field: 7, wire: 'bytes', value: text('file:///w/b%20c/') }]);
    expect(decodeAgyTrajectory(only7).workspaces).toEqual(['/w/b c']);
    const only1 = encodeProto([{ field: 1, wire: 'bytes', value: encodeProto([{ field: 1, wire: 'bytes', value: text('file:///w/d') }, { field: 4, wire: 'bytes', value: text('main') }]) }]);
    expect(decodeAgyTrajectory(only1).workspaces).toEqual(['/w/d']);
  });

  it('a headless run records no workspace; a parent that is no uuid is none', () => {
    expect(decodeAgyTrajectory(trajectoryBlob({}))).toEqual({ recorded: true, workspaces: [], parent: null, depth: 0 });
    const bad = encodeProto([{ field: 5, wire: 'bytes', value: text('../../etc') }]);
    expect(decodeAgyTrajectory(bad).parent).toBeNull();
  });

  it.each(['http://x/w', 'file://remote-host/w', 'file:relative', '/plain/path', 'file:///a%00b', ''])('%j is no workspace', (uri) => {
    expect(agyUriPath(uri)).toBeNull();
  });

  it('malformed bytes record nothing (no workspace evidence), never a throw', () => {
    expect(decodeAgyTrajectory(Uint8Array.from([0x0a, 0x7f, 0x01]))).toEqual({ recorded: false, workspaces: [], parent: null, depth: 0 });
  });

  it('reads the record from a real-schema database; a database without the row records nothing; not-a-db and a directory are null', async () => {
    const fs = new NodeFileSystem();
    const db = join(dir, 'c.db');
    const conn = new Database(db);
    for (const sql of agyConversationSql(PARENT, trajectoryBlob({ workspaces: [dir] }))) conn.exec(sql);
    conn.close();
    expect(await readAgyTrajectory(fs, db)).toMatchObject({ recorded: true, workspaces: [dir] });
    const bare = join(dir, 'bare.db');
    const c2 = new Database(bare);
    for (const sql of agyConversationSql(PARENT, null)) c2.exec(sql);
    c2.close();
    expect(await readAgyTrajectory(fs, bare)).toEqual({ recorded: false, workspaces: [], parent: null, depth: 0 });
    writeFileSync(join(dir, 'garbage.db'), 'not sqlite');
    expect(await readAgyTrajectory(fs, join(dir, 'garbage.db'))).toBeNull();
    mkdirSync(join(dir, 'dir.db'));
    expect(await readAgyTrajectory(fs, join(dir, 'dir.db'))).toBeNull();
    // A link to a real conversation database is not the conversation's own file: never read through.
    symlinkSync(db, join(dir, 'link.db'));
    expect(await readAgyTrajectory(fs, join(dir, 'link.db'))).toBeNull();
    writeFileSync(join(dir, 'empty.db'), '');
    expect(await readAgyTrajectory(fs, join(dir, 'empty.db'))).toBeNull();
    // Text where a -wal and -shm sit beside it: refused before SQLite could take a page from the -wal.
    writeFileSync(join(dir, 'text.db'), 'not sqlite either, but long enough to hold a header');
    copyFileSync(db, join(dir, 'text.db-wal'));
    writeFileSync(join(dir, 'text.db-shm'), '');
    expect(await readAgyTrajectory(fs, join(dir, 'text.db'))).toBeNull();
  });
});

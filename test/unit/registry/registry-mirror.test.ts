import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enableSqliteUri } from '../../../src/node/sqlite-uri.js';
import { RegistryFileRefusedError, SessionRegistry } from '../../../src/registry/index.js';
import { fullParseYaml } from '../../../src/registry/yaml-full-parse.js';
import { makeRow, makeWorkspace, UA, UORC } from '../../helpers/registry-fixtures.js';
import { expectedMirror, readMirror } from '../../helpers/registry-mirror.js';

describe('the registry mirror .mam/agent-sessions.db', () => {
  let ws: string;
  let yaml: string;
  let db: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    enableSqliteUri();
    ({ ws, yaml, db, dispose } = await makeWorkspace());
  });
  afterEach(async () => {
    await dispose();
  });

  async function expectMirrorIsYaml(): Promise<void> {
    const bytes = await readFile(yaml);
    const doc = fullParseYaml(bytes.toString('utf8')) as Record<string, unknown>;
    const mirror = readMirror(db);
    expect({ rows: mirror?.rows, orchestrators: mirror?.orchestrators, extras: mirror?.extras }).toEqual(expectedMirror(doc));
    expect(mirror?.hash).toBe(createHash('sha256').update(bytes).digest('hex'));
  }

  it('answers the reference tool\'s query: SELECT name, status FROM sessions', async () => {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws, { ownId: UA }), makeRow('b', 'codex', ws, { status: 'stopped' }));
    });
    const conn = new Database(db, { readonly: true });
    const rows = conn.prepare('SELECT name, status, agent, own_id, pane_cwd, session_id_verified FROM sessions ORDER BY seq').all();
    conn.close();
    expect(rows).toEqual([
      { name: 'a', status: 'running', agent: 'claude', own_id: UA, pane_cwd: ws, session_id_verified: 1 },
      { name: 'b', status: 'stopped', agent: 'codex', own_id: null, pane_cwd: ws, session_id_verified: 0 },
    ]);
  });

  it('follows removals, renames, moves, appends and orchestrator changes', async () => {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      for (let i = 0; i < 6; i++) d.herdr_sessions.push(makeRow(`r${i}`, 'grok', ws));
    });
    const steps: Array<(d: Awaited<ReturnType<SessionRegistry['snapshot']>>) => void> = [
      (d) => void d.herdr_sessions.splice(2, 1),
      (d) => void ((d.herdr_sessions[0] as { name: string }).name = 'renamed-first'),
      (d) => void d.herdr_sessions.reverse(),
      (d) => void d.herdr_sessions.push(makeRow('appended', 'hermes', ws)),
      (d) => void d.orchestrator_uuids.push(UORC),
      (d) => void Object.assign(d, { note: { any: ['thing'] } }),
      (d) => void ((d.herdr_sessions[1] as { status: string }).status = 'terminated'),
    ];
    for (const step of steps) {
      await registry.update(step);
      await expectMirrorIsYaml();
    }
  });

  it('changes only what changed when it holds the previous version (gaps in seq show it), else rebuilds', async () => {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      for (let i = 0; i < 5; i++) d.herdr_sessions.push(makeRow(`r${i}`, 'grok', ws));
    });
    const seqs = (): Array<[string, number]> => {
      const conn = new Database(db, { readonly: true });
      try {
        return conn.prepare<[], { name: string; seq: number }>('SELECT name, seq FROM sessions ORDER BY seq').all().map((r) => [r.name, r.seq]);
      } finally {
        conn.close();
      }
    };
    expect(seqs()).toEqual([['r0', 0], ['r1', 1], ['r2', 2], ['r3', 3], ['r4', 4]]);
    await registry.update((d) => {
      d.herdr_sessions.splice(1, 1);
      d.herdr_sessions.push(makeRow('new', 'grok', ws));
    });
    expect(seqs()).toEqual([['r0', 0], ['r2', 2], ['r3', 3], ['r4', 4], ['new', 5]]);
    await registry.update((d) => {
      d.herdr_sessions.unshift(makeRow('first', 'grok', ws));
    });
    expect(seqs()).toEqual([['first', 0], ['r0', 1], ['r2', 2], ['r3', 3], ['r4', 4], ['new', 5]]);
    await expectMirrorIsYaml();
  });

  it('is rebuilt when the YAML changed behind its back (another tool wrote it)', async () => {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws));
    });
    await writeFile(yaml, 'herdr_sessions:\n- name: written-by-python\n  status: stopped\n  agent: agy\n');
    await registry.update(() => undefined);
    expect(readMirror(db)?.names).toEqual([{ name: 'written-by-python', status: 'stopped' }]);
    await expectMirrorIsYaml();
    // ...and the no-op update left the other tool's file exactly as it was.
    expect(await readFile(yaml, 'utf8')).toBe('herdr_sessions:\n- name: written-by-python\n  status: stopped\n  agent: agy\n');
  });

  it('is rebuilt when it is not a database at all', async () => {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws));
    });
    await writeFile(db, 'this is not SQLite');
    await registry.update((d) => {
      d.herdr_sessions.push(makeRow('b', 'claude', ws));
    });
    await expectMirrorIsYaml();
  });

  // Issue 31: a sessions table of another layout was dropped and replaced — another application's data, lost.
  it('never replaces a sessions table of another layout: the update is refused (REGISTRY_FILE_REFUSED), the database byte-identical', async () => {
    const foreign = new Database(db);
    foreign.exec("CREATE TABLE sessions (name TEXT PRIMARY KEY, status TEXT); INSERT INTO sessions VALUES ('ghost', 'running')");
    foreign.close();
    const before = await readFile(db);
    const err = await new SessionRegistry(ws).update((d) => {
      d.herdr_sessions.push(makeRow('real', 'opencode', ws));
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryFileRefusedError);
    expect((err as RegistryFileRefusedError).data).toEqual({ path: db, problem: 'foreign-database' });
    expect(await readFile(db)).toEqual(before);
    await expect(readFile(yaml)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('leaves no sidecar files next to it', async () => {
    await new SessionRegistry(ws).update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws));
    });
    const { readdir } = await import('node:fs/promises');
    expect((await readdir(`${ws}/.mam`)).sort()).toEqual(['agent-sessions.db', 'agent-sessions.lock', 'agent-sessions.yaml']);
  });
});

import { existsSync } from 'node:fs';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LockTimeoutError, tryLock } from '../../../src/atomic/index.js';
import { PortError } from '../../../src/errors.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import {
  RegistryInvalidUpdateError,
  RegistryReentrantUpdateError,
  type SessionRow,
  SessionRegistry,
} from '../../../src/registry/index.js';
import { fullParseYaml } from '../../../src/registry/yaml-full-parse.js';
import { FakeClock, RecordingFileSystem } from '../../../src/testing/index.js';
import { makeRow, makeWorkspace, UA, UORC } from '../../helpers/registry-fixtures.js';
import { readMirror } from '../../helpers/registry-mirror.js';

describe('SessionRegistry.update', () => {
  let ws: string;
  let yaml: string;
  let db: string;
  let mam: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ ws, yaml, db, mam, dispose } = await makeWorkspace());
  });
  afterEach(async () => {
    await dispose();
  });

  const seed = async (rows: SessionRow[], extra: Record<string, unknown> = {}): Promise<SessionRegistry> => {
    const registry = new SessionRegistry(ws);
    await registry.update((d) => {
      d.herdr_sessions.push(...rows);
      Object.assign(d, extra);
    });
    return registry;
  };

  it('a missing file is an empty registry, and a no-op update creates nothing', async () => {
    const registry = new SessionRegistry(ws);
    expect(await registry.snapshot()).toEqual({ orchestrator_uuids: [], herdr_sessions: [] });
    expect(await registry.update(() => 42)).toBe(42);
    expect(await readdir(mam)).toEqual(['agent-sessions.lock']);
  });

  it('writes the YAML and its mirror, and returns what the mutator returned (async too)', async () => {
    const registry = new SessionRegistry(ws);
    const got = await registry.update(async (d) => {
      await Promise.resolve();
      d.herdr_sessions.push(makeRow('reviewer-claude-01', 'claude', ws, { ownId: UA }));
      d.orchestrator_uuids.push(UORC);
      return 'done';
    });
    expect(got).toBe('done');
    const doc = fullParseYaml(await readFile(yaml, 'utf8')) as Record<string, unknown>;
    expect(doc['orchestrator_uuids']).toEqual([UORC]);
    expect((doc['herdr_sessions'] as SessionRow[])[0]).toEqual(makeRow('reviewer-claude-01', 'claude', ws, { ownId: UA }));
    expect(readMirror(db)?.names).toEqual([{ name: 'reviewer-claude-01', status: 'running' }]);
  });

  it('a mutator that throws writes nothing and releases the lock', async () => {
    const registry = await seed([makeRow('a', 'claude', ws)]);
    const before = await readFile(yaml);
    const mtime = (await stat(yaml)).mtimeMs;
    const mirror = readMirror(db);
    await expect(registry.update((d) => {
      d.herdr_sessions.length = 0;
      throw new Error('changed my mind');
    })).rejects.toThrow('changed my mind');
    expect(await readFile(yaml)).toEqual(before);
    expect((await stat(yaml)).mtimeMs).toBe(mtime);
    expect(readMirror(db)).toEqual(mirror);
    expect((await registry.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
    const lock = tryLock(join(mam, 'agent-sessions.lock'));
    expect(lock).not.toBeNull();
    lock?.release();
  });

  const invalid: Array<[string, (d: Record<string, unknown> & { herdr_sessions: SessionRow[] }) => void, string, RegExp]> = [
    ['a duplicate name', (d) => d.herdr_sessions.push(makeRow('a', 'grok', ws)), 'duplicate-name', /duplicate row name "a"/],
    ['an unknown agent', (d) => d.herdr_sessions.push({ ...makeRow('b', 'claude', ws), agent: 'gpt' } as unknown as SessionRow), 'unknown-agent', /row b: unknown agent "gpt"/],
    ['a Date value', (d) => Object.assign(d.herdr_sessions[0] as object, { when: new Date(0) }), 'unsupported-value', /row a: field when holds a Date/],
    ['a function at the top level', (d) => Object.assign(d, { fn: () => 1 }), 'unsupported-value', /fn holds a function/],
    ['herdr_sessions replaced by a mapping', (d) => Object.assign(d, { herdr_sessions: {} }), 'not-a-list', /herdr_sessions is a mapping/],
    ['orchestrator_uuids deleted', (d) => delete d['orchestrator_uuids'], 'not-a-list', /orchestrator_uuids is missing/],
  ];
  for (const [what, mutate, problem, says] of invalid) {
    it(`a mutator that leaves ${what} is refused and nothing is written`, async () => {
      const registry = await seed([makeRow('a', 'claude', ws)]);
      const before = await readFile(yaml);
      const err = (await registry.update((d) => mutate(d as never)).catch((e: unknown) => e)) as RegistryInvalidUpdateError;
      expect(err).toBeInstanceOf(RegistryInvalidUpdateError);
      expect(err.code).toBe('REGISTRY_INVALID_UPDATE');
      expect(err.data.problem).toBe(problem);
      expect(err.message).toMatch(says);
      expect(err.message).toContain('nothing written');
      expect(await readFile(yaml)).toEqual(before);
    });
  }

  it('keeps another writer\'s file as it was, except the row that changed (key order, quoting, unknown fields)', async () => {
    // As PyYAML's safe_dump(sort_keys=True) writes it: keys sorted, strings single-quoted where needed.
    const rowA = "- agent: claude\n  claude_session_id_own: null\n  custom_field:\n    nested:\n    - 1\n    - 2\n  herdr_session_created_at: '2026-10-01T00:00:00Z'\n  name: a\n  status: running\n";
    const rowB = '- agent: agy\n  name: b\n  status: running\n';
    await writeFile(yaml, `herdr_sessions:\n${rowA}${rowB}orchestrator_uuids: []\nversion: 2\n`);
    await new SessionRegistry(ws).update((d) => {
      const b = d.herdr_sessions.find((r) => r.name === 'b');
      if (b !== undefined) b.status = 'stopped';
    });
    expect(await readFile(yaml, 'utf8')).toBe(`herdr_sessions:\n${rowA}- agent: agy\n  name: b\n  status: stopped\norchestrator_uuids: []\nversion: 2\n`);
  });

  it('reads a file that starts with a byte-order mark', async () => {
    await writeFile(yaml, '\ufeffherdr_sessions:\n- name: a\n  status: running\n');
    expect((await new SessionRegistry(ws).snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
  });

  it('snapshots are copies: changing one changes nothing', async () => {
    const registry = await seed([makeRow('a', 'claude', ws)]);
    const s1 = await registry.snapshot();
    (s1.herdr_sessions[0] as SessionRow).status = 'terminated';
    s1.orchestrator_uuids.push('x');
    const s2 = await registry.snapshot();
    expect(s2.herdr_sessions[0]?.status).toBe('running');
    expect(s2.orchestrator_uuids).toEqual([]);
  });

  it('a draft kept by the mutator cannot change the registry afterwards', async () => {
    const registry = await seed([makeRow('a', 'claude', ws)]);
    let kept: SessionRow | undefined;
    await registry.update((d) => {
      kept = d.herdr_sessions[0];
      if (kept !== undefined) kept.role = 'creator';
    });
    if (kept !== undefined) kept.role = 'sneaky';
    expect((await registry.snapshot()).herdr_sessions[0]?.role).toBe('creator');
    expect(fullParseYaml(await readFile(yaml, 'utf8'))).toMatchObject({ herdr_sessions: [{ role: 'creator' }] });
  });

  it('an update from inside an update fails at once instead of waiting for itself', async () => {
    const registry = await seed([makeRow('a', 'claude', ws)]);
    const before = await readFile(yaml);
    const other = new SessionRegistry(ws);
    const err = await registry.update(async (d) => {
      d.herdr_sessions.length = 0;
      return other.update(() => 1);
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryReentrantUpdateError);
    expect(await readFile(yaml)).toEqual(before);
  });

  it('concurrent updates in one process, on two instances, lose none', async () => {
    const a = new SessionRegistry(ws);
    const b = new SessionRegistry(ws);
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).update((d) => {
      d.herdr_sessions.push(makeRow(`r-${i}`, 'codex', ws));
    })));
    const names = (await a.snapshot()).herdr_sessions.map((r) => r.name).sort();
    expect(names).toEqual(Array.from({ length: 30 }, (_, i) => `r-${i}`).sort());
  });

  it('gives up with a LockTimeoutError while another holder keeps the lock, and writes nothing', async () => {
    const registry = await seed([makeRow('a', 'claude', ws)]);
    const before = await readFile(yaml);
    const holder = tryLock(join(mam, 'agent-sessions.lock'));
    try {
      const timed = new SessionRegistry(ws, { ports: { clock: new FakeClock({ autoAdvance: true }) }, lockTimeoutMs: 500 });
      const err = await timed.update((d) => {
        d.herdr_sessions.length = 0;
      }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockTimeoutError);
    } finally {
      holder?.release();
    }
    expect(await readFile(yaml)).toEqual(before);
    expect((await registry.update(() => 'free again'))).toBe('free again');
  });

  it('makes every change through the FileSystemPort, inside .mam only', async () => {
    const fs = new RecordingFileSystem(new NodeFileSystem());
    await new SessionRegistry(ws, { ports: { fs } }).update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws));
    });
    // `.mam/` exists already; the last write makes the mirror's empty file (through the port, never by SQLite).
    expect(fs.mutations.map((m) => m.op)).toEqual(['writeFile', 'rename', 'writeFile']);
    expect(fs.mutations[2]?.path).toBe(db);
    expect(fs.mutations.every((m) => m.path.startsWith(`${mam}/`) || m.path === mam)).toBe(true);
  });

  it('a write that fails (ENOSPC at the rename) leaves the old file, no temp, and the old mirror', async () => {
    await seed([makeRow('a', 'claude', ws)]);
    const before = await readFile(yaml);
    const mirror = readMirror(db);
    const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: (m) => (m.op === 'rename' ? 'ENOSPC' : null) });
    const registry = new SessionRegistry(ws, { ports: { fs } });
    const err = await registry.update((d) => {
      d.herdr_sessions.push(makeRow('b', 'claude', ws));
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PortError);
    expect((err as PortError).code).toBe('NoSpace');
    expect(await readFile(yaml)).toEqual(before);
    expect(await readdir(mam)).not.toContainEqual(expect.stringMatching(/\.tmp$/));
    expect(readMirror(db)).toEqual(mirror);
    // The failed version was not cached: the same instance still sees the file as it is.
    expect((await registry.snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
  });

  it('sweeps a temp file a killed writer left, on its first update', async () => {
    await seed([]);
    const stray = join(mam, '.agent-sessions.yaml.0b6f5e1c-2f64-4c3a-9d1e-1a2b3c4d5e6f.tmp');
    await writeFile(stray, 'half a registry');
    await new SessionRegistry(ws).update((d) => {
      d['touched'] = true;
    });
    expect(existsSync(stray)).toBe(false);
  });

  it('uses no process, herdr or sleep: nothing but the filesystem and the lock runs under it', async () => {
    const calls: string[] = [];
    const spy = <T extends object>(name: string): T =>
      new Proxy({} as T, {
        get: (_t, prop) => () => {
          calls.push(`${name}.${String(prop)}`);
          throw new Error(`${name}.${String(prop)} must not run under the registry lock`);
        },
      });
    const clock = new FakeClock();
    const sleeping = clock.sleep.bind(clock);
    clock.sleep = (ms, signal) => {
      calls.push('clock.sleep');
      return sleeping(ms, signal);
    };
    const registry = new SessionRegistry(ws, { ports: { proc: spy('proc'), herdr: spy('herdr'), clock } });
    for (let i = 0; i < 3; i++) {
      await registry.update((d) => {
        d.herdr_sessions.push(makeRow(`r${i}`, 'claude', ws));
      });
    }
    expect(calls).toEqual([]);
    expect((await registry.snapshot()).herdr_sessions).toHaveLength(3);
  });
});

// Issue 31: the registry's files are the registry's. A symlink (absolute or relative, e.g. committed in a cloned repo), a
// hard link, a directory, a FIFO or a foreign SQLite database at any registry name is a typed refusal naming the path,
// and whatever the name pointed at — another application's database, another `.mam/` — is byte-identical afterwards.
import { cpSync, linkSync, lstatSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RegistryCorruptError, RegistryFileRefusedError, SessionRegistry } from '../../src/registry/index.js';
import { makeTempDir } from '../helpers/fs-temp.js';
import { makeRow } from '../helpers/registry-fixtures.js';
import { readMirror } from '../helpers/registry-mirror.js';
import {
  foreignRows,
  HOSTILE_KINDS,
  type HostileKind,
  makeVictims,
  placeable,
  placeHostile,
  REGISTRY_NAMES,
  type RegistryName,
  treeDigest,
  type Victims,
} from '../helpers/registry-links.js';

// What the name itself looks like: a link's target text, a directory's tree, a file's bytes, or just its kind.
function lookOf(path: string): string {
  const st = lstatSync(path);
  if (st.isSymbolicLink()) return `link:${readlinkSync(path)}`;
  if (st.isDirectory()) return `dir:${treeDigest(path)}`;
  if (st.isFile()) return `file:${st.nlink}:${readFileSync(path).toString('base64')}`;
  return st.isFIFO() ? 'fifo' : 'other';
}

/** The refusal `update()` gives for `kind` at `name`: the class, and the problem it names. */
function expected(name: RegistryName, kind: HostileKind): { cls: 'refused' | 'corrupt'; problem: string } {
  if (name === '.') return { cls: 'refused', problem: kind.startsWith('symlink') ? 'symlink' : 'not-a-directory' };
  if (kind.startsWith('symlink')) return { cls: 'refused', problem: 'symlink' };
  if (kind === 'hard-link') return { cls: 'refused', problem: 'hard-link' };
  // The YAML as a directory, a FIFO or a file that is no YAML is unreadable: never written over, as before.
  if (name === 'agent-sessions.yaml') return { cls: 'corrupt', problem: '' };
  if (kind === 'directory') return { cls: 'refused', problem: 'directory' };
  if (kind === 'fifo') return { cls: 'refused', problem: 'not-regular' };
  return { cls: 'refused', problem: 'foreign-database' };
}

describe('a link, a directory, a FIFO or a foreign database at a registry name is refused, and nothing it leads to changes', () => {
  // One registry with one row (the YAML, the lock and the mirror all exist) and its victims, made once and copied per
  // case (a copy makes no fsync: the matrix stays fast).
  let template: string;
  let base: string;
  let dispose: () => Promise<void>;
  let ws: string;
  let mam: string;
  let victims: Victims;
  beforeAll(async () => {
    template = mkdtempSync(join(tmpdir(), 'mam-reg-links-template-'));
    makeVictims(join(template, 'victims'));
    const tws = join(template, 'ws');
    const reg = new SessionRegistry(tws, { createWorkspace: true });
    await reg.update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', tws));
    });
    reg.close();
  });
  afterAll(() => {
    rmSync(template, { recursive: true, force: true });
  });
  beforeEach(async () => {
    ({ dir: base, dispose } = await makeTempDir('mam-reg-links-'));
    cpSync(template, base, { recursive: true });
    ws = join(base, 'ws');
    mam = join(ws, '.mam');
    victims = { dir: join(base, 'victims'), db: join(base, 'victims', 'other-app', 'data.db'), mam: join(base, 'victims', 'other-mam') };
  });
  afterEach(async () => {
    await dispose();
  });

  const cases = REGISTRY_NAMES.flatMap((name) => HOSTILE_KINDS.filter((k) => placeable(name, k) && !(name === '.' && k === 'directory')).map((kind) => [name, kind] as const));

  it.each(cases)('%s as %s: update() and checkFiles() refuse it naming the path; the victims and the name are unchanged', async (name, kind) => {
    const yamlBefore = readFileSync(join(mam, 'agent-sessions.yaml'));
    const path = placeHostile(mam, name, kind, victims);
    const victimsBefore = treeDigest(victims.dir);
    const lookBefore = lookOf(path);
    const reg = new SessionRegistry(ws);
    const err = await reg.update((d) => {
      d.herdr_sessions.push(makeRow('b', 'codex', ws));
    }).catch((e: unknown) => e);
    const want = expected(name, kind);
    if (want.cls === 'corrupt') {
      expect(err).toBeInstanceOf(RegistryCorruptError);
      expect((err as RegistryCorruptError).data.path).toBe(path);
    } else {
      expect(err).toBeInstanceOf(RegistryFileRefusedError);
      expect((err as RegistryFileRefusedError).code).toBe('REGISTRY_FILE_REFUSED');
      expect((err as RegistryFileRefusedError).data).toEqual({ path, problem: want.problem });
      expect((err as Error).message).toContain(path);
      expect((err as Error).message).not.toContain('\n');
    }
    // checkFiles() looks at the files, not at the YAML's content: a database in place of the YAML is a regular file.
    const again = await reg.checkFiles().catch((e: unknown) => e);
    if (name === 'agent-sessions.yaml' && kind === 'foreign-db') expect(again).toBeUndefined();
    else expect(again?.constructor).toBe(err?.constructor);
    expect(treeDigest(victims.dir)).toBe(victimsBefore);
    expect(foreignRows(victims.db)).toBe(3);
    expect(lookOf(path)).toBe(lookBefore);
    if (name !== '.' && name !== 'agent-sessions.yaml') expect(readFileSync(join(mam, 'agent-sessions.yaml'))).toEqual(yamlBefore);
    reg.close();
  });

  it.each(['symlink-abs', 'symlink-rel', 'hard-link'] as const)('reads never follow a link out of .mam: the YAML as %s is refused by snapshot() and inspect()', async (kind) => {
    const path = placeHostile(mam, 'agent-sessions.yaml', kind, victims);
    const reg = new SessionRegistry(ws);
    for (const read of [() => reg.snapshot(), () => reg.inspect()]) {
      const err = await read().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RegistryFileRefusedError);
      expect((err as RegistryFileRefusedError).data).toEqual({ path, problem: kind === 'hard-link' ? 'hard-link' : 'symlink' });
    }
  });

  it('reads never follow a linked .mam: snapshot() refuses it', async () => {
    placeHostile(mam, '.', 'symlink-rel', victims);
    await expect(new SessionRegistry(ws).snapshot()).rejects.toMatchObject({ code: 'REGISTRY_FILE_REFUSED', data: { path: mam, problem: 'symlink' } });
  });

  it('a link at any other name does not stop reads: snapshot() still reads the YAML', async () => {
    placeHostile(mam, 'agent-sessions.db', 'symlink-abs', victims);
    expect((await new SessionRegistry(ws).snapshot()).herdr_sessions.map((r) => r.name)).toEqual(['a']);
  });

  it('links named like stale temps of the YAML are never written through (the sweep removes a name only, never a target)', async () => {
    const uuid = '0b5e7c1a-1111-4222-8333-944445555666';
    symlinkSync(victims.db, join(mam, `.agent-sessions.yaml.${uuid}.tmp`));
    linkSync(victims.db, join(mam, `.agent-sessions.yaml.${uuid.replace('0b5e', '1b5e')}.tmp`));
    const before = treeDigest(victims.dir);
    await new SessionRegistry(ws).update((d) => {
      d.herdr_sessions.push(makeRow('b', 'codex', ws));
    });
    expect(treeDigest(victims.dir)).toBe(before);
    expect(foreignRows(victims.db)).toBe(3);
  });

  it('once the hostile file is gone, the next update writes the YAML and the mirror as usual', async () => {
    const path = placeHostile(mam, 'agent-sessions.db', 'hard-link', victims);
    const reg = new SessionRegistry(ws);
    await expect(reg.update(() => undefined)).rejects.toBeInstanceOf(RegistryFileRefusedError);
    rmSync(path);
    await reg.update((d) => {
      d.herdr_sessions.push(makeRow('b', 'codex', ws));
    });
    expect(readMirror(path)?.names.map((n) => n.name)).toEqual(['a', 'b']);
    expect(foreignRows(victims.db)).toBe(3);
    reg.close();
  });
});

// The symptom of issue 31, as found: one update() through a linked mirror opened another application's database and
// dropped its `sessions` table — 0 of 3 rows left, no warning.
describe('one update() through a symlinked or hard-linked mirror dropped another database\'s sessions table', () => {
  let base: string;
  let dispose: () => Promise<void>;
  beforeEach(async () => {
    ({ dir: base, dispose } = await makeTempDir('mam-reg-drop-'));
  });
  afterEach(async () => {
    await dispose();
  });

  it.each(['symlink-rel', 'symlink-abs', 'hard-link'] as const)('a mirror that is a %s to another app\'s database: refused, its 3 rows kept', async (kind) => {
    const ws = join(base, 'ws');
    const victims = makeVictims(join(base, 'victims'));
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(ws, '.mam'), { recursive: true });
    placeHostile(join(ws, '.mam'), 'agent-sessions.db', kind, victims);
    const before = readFileSync(victims.db);
    const err = await new SessionRegistry(ws).update((d) => {
      d.herdr_sessions.push(makeRow('a', 'claude', ws));
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegistryFileRefusedError);
    expect(foreignRows(victims.db)).toBe(3);
    expect(readFileSync(victims.db)).toEqual(before);
  });
});

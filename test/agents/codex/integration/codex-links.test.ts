// Linked directories in a Codex home: a root that is itself a link (CODEX_HOME, ~/.codex, sessions/) is followed; a key
// directory below a root that links elsewhere is never followed — what lies behind it stays, is reported as residual,
// and still counts for hasArtifacts.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { buildCodexHome, codexDir, rolloutPath, v7, type ThreadSpec } from '../../../helpers/adapter-codex-home.js';
import { dumpRows } from '../../../helpers/adapter-codex-tree.js';
import { strs } from '../../../helpers/artifact-strings.js';

const adapter = getAdapter('codex');
const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function setup(): { root: string; homeDir: string; dir: string; t: ThreadSpec; outside: string } {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-links-'));
  roots.push(root);
  const homeDir = join(root, 'home');
  const t: ThreadSpec = { id: v7(7), cwd: join(root, 'ws'), updated: 2_000_000_000 };
  buildCodexHome(homeDir, [t]);
  const outside = join(root, 'outside');
  mkdirSync(outside);
  return { root, homeDir, dir: codexDir(homeDir), t, outside };
}

// Moves `dir` to `<outside>/<name>` and leaves a link to it in its place.
function linkOut(dir: string, outside: string, name: string): string {
  const target = join(outside, name);
  renameSync(dir, target);
  symlinkSync(target, dir);
  return target;
}

describe('codex purge and linked directories', () => {
  it('a CODEX_HOME that is itself a link is a root like any other: everything goes', async () => {
    const { root, homeDir, dir, t } = setup();
    const real = dir;
    const link = join(root, 'codex-link');
    symlinkSync(real, link);
    const ctx: HomeDiscoveryContext = { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: link } };
    expect(await adapter.discover(ctx)).toEqual([t.id]);
    const purged = strs(await adapter.purgeArtifacts(t.id, ctx));
    expect(purged).toHaveLength(5);
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([]);
    expect(existsSync(join(real, 'shell_snapshots', `${t.id}.2000000000000000000.sh`))).toBe(false);
  });

  it('a linked ~/.codex (no CODEX_HOME) and a linked sessions/ root are followed too', async () => {
    const { root, homeDir, dir, t, outside } = setup();
    linkOut(join(dir, 'sessions'), outside, 'sessions');
    const real = join(root, 'dot-codex');
    renameSync(dir, real);
    symlinkSync(real, dir);
    const ctx: HomeDiscoveryContext = { workspace: t.cwd, home: homeDir, env: {} };
    expect(strs(await adapter.purgeArtifacts(t.id, ctx))).toContain(rolloutPath(homeDir, t));
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([]);
    expect(await adapter.hasArtifacts(t.id, ctx)).toBe(false);
  });

  it.each([
    ['shell_snapshots', (d: string, id: string) => join(d, 'shell_snapshots', `${id}.2000000000000000000.sh`)],
    ['thread-writer-locks', (d: string, id: string) => join(d, 'thread-writer-locks', `${id}.lock`)],
  ])('a linked %s/ is not followed: its file stays, is residual, and hasArtifacts stays true', async (name, fileOf) => {
    const { homeDir, dir, t, outside } = setup();
    const target = linkOut(join(dir, name), outside, name);
    const ctx: HomeDiscoveryContext = { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: dir } };
    const behind = fileOf(dir, t.id);
    expect(await adapter.hasArtifacts(t.id, ctx)).toBe(true);
    const purged = strs(await adapter.purgeArtifacts(t.id, ctx));
    expect(purged).not.toContain(behind);
    expect(existsSync(join(target, behind.slice(join(dir, name).length + 1)))).toBe(true);
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([behind]);
    expect(await adapter.hasArtifacts(t.id, ctx)).toBe(true);
  });

  it('a linked day directory under sessions/ is not followed: the rollout (and its threads row) stay and are residual', async () => {
    const { homeDir, dir, t, outside } = setup();
    const rollout = rolloutPath(homeDir, t);
    linkOut(dirname(rollout), outside, 'day');
    const ctx: HomeDiscoveryContext = { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: dir } };
    strs(await adapter.purgeArtifacts(t.id, ctx));
    expect(readFileSync(join(outside, 'day', rollout.split('/').pop() as string), 'utf8')).toContain(t.id);
    // The threads row that ties it to the conversation stays with it.
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([rollout, `${dir}/state_5.sqlite (threads.id: 1 rows)`]);
    expect(await adapter.hasArtifacts(t.id, ctx)).toBe(true);
  });

  it('a snapshot that is a leaf link goes as the link alone', async () => {
    const { homeDir, dir, t, outside } = setup();
    const secret = join(outside, 'secret.sh');
    writeFileSync(secret, 'keep me');
    symlinkSync(secret, join(dir, 'shell_snapshots', `${t.id}.99.sh`));
    const ctx: HomeDiscoveryContext = { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: dir } };
    expect(strs(await adapter.purgeArtifacts(t.id, ctx))).toContain(join(dir, 'shell_snapshots', `${t.id}.99.sh`));
    expect(readFileSync(secret, 'utf8')).toBe('keep me');
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([]);
  });

  it('a state DB that is a link is never written through: its rows stay and are residual', async () => {
    const { homeDir, dir, t, outside } = setup();
    const target = join(outside, 'state_5.sqlite');
    renameSync(join(dir, 'state_5.sqlite'), target);
    symlinkSync(target, join(dir, 'state_5.sqlite'));
    const before = dumpRows(target);
    const ctx: HomeDiscoveryContext = { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: dir } };
    const purged = strs(await adapter.purgeArtifacts(t.id, ctx));
    expect(purged.filter((p) => p.includes('.sqlite ('))).toEqual([]);
    expect(dumpRows(target)).toEqual(before);
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([
      `${dir}/state_5.sqlite (thread_dynamic_tools.thread_id: 1 rows)`,
      `${dir}/state_5.sqlite (threads.id: 1 rows)`,
      `${dir}/state_5.sqlite (not a regular file inside its directory: not purged)`,
    ]);
  });
});

// A Codex database whose rows of the thread could not be deleted: the purge goes on with the rest, and the residual names
// the rows that stay together with why that database kept them (`<db> (<why>: not purged)`), until the next purge.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAdapter } from '../../../../src/agents/get-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { PurgeService } from '../../../../src/purge/purge-service.js';
import { nodePorts } from '../../../../src/node/node-ports.js';
import { buildCodexHome, codexDir, execSql, rolloutPath, v7, type ThreadSpec } from '../../../helpers/adapter-codex-home.js';
import { dumpRows } from '../../../helpers/adapter-codex-tree.js';
import { strs } from '../../../helpers/artifact-strings.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

// A home with one thread whose `logs_2.sqlite` row cannot be deleted: a trigger aborts every delete there.
function setup(): { homeDir: string; dir: string; t: ThreadSpec; logs: string; ctx: HomeDiscoveryContext } {
  const root = mkdtempSync(join(tmpdir(), 'mam-codex-rowfail-'));
  roots.push(root);
  const homeDir = join(root, 'home');
  const t: ThreadSpec = { id: v7(11), cwd: join(root, 'ws'), updated: 2_000_000_000 };
  buildCodexHome(homeDir, [t]);
  const dir = codexDir(homeDir);
  const logs = join(dir, 'logs_2.sqlite');
  execSql(logs, [
    'CREATE TABLE logs (id INTEGER PRIMARY KEY, thread_id TEXT, line TEXT)',
    `INSERT INTO logs (thread_id, line) VALUES ('${t.id}', 'hello')`,
    "CREATE TRIGGER keep_logs BEFORE DELETE ON logs BEGIN SELECT RAISE(ABORT, 'logs are append-only'); END",
  ]);
  return { homeDir, dir, t, logs, ctx: { workspace: t.cwd, home: homeDir, env: { CODEX_HOME: dir } } };
}

describe('codex purge: a row delete that fails', () => {
  it('is named in the residual with why, beside the rows that stay; the rest of the conversation goes', async () => {
    const { dir, t, logs, ctx } = setup();
    const adapter = getAdapter('codex');
    const purged = strs(await adapter.purgeArtifacts(t.id, ctx));
    expect(purged).toContain(`${dir}/state_5.sqlite (threads.id: 1 rows)`);
    expect(purged.filter((p) => p.startsWith(logs))).toEqual([]);
    expect(existsSync(rolloutPath(ctx.home, t))).toBe(false);
    expect(dumpRows(logs).some((r) => r.includes(t.id))).toBe(true);
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([
      `${logs} (logs.thread_id: 1 rows)`,
      `${logs} (logs are append-only: not purged)`,
    ]);
    expect(await adapter.hasArtifacts(t.id, ctx)).toBe(true);
  });

  it('reaches the purge result\'s residual, and a later purge that succeeds clears it', async () => {
    const { t, logs, ctx } = setup();
    const service = new PurgeService({ ports: nodePorts() });
    const first = await service.purge('codex', t.id, { home: ctx.home, workspace: ctx.workspace, env: { ...ctx.env } });
    expect(first.kind === 'partial' && strs(first.residual)).toEqual([`${logs} (logs.thread_id: 1 rows)`, `${logs} (logs are append-only: not purged)`]);
    execSql(logs, ['DROP TRIGGER keep_logs']);
    const adapter = getAdapter('codex');
    expect(strs(await adapter.purgeArtifacts(t.id, ctx))).toEqual([`${logs} (logs.thread_id: 1 rows)`]);
    expect(strs(await adapter.residualArtifacts(t.id, ctx))).toEqual([]);
  });
});

import { formatArtifact } from '../../src/purge/artifact.js';
// Hard-linked SQLite sidecars (issue 13: codex, opencode, hermes, 6 of 6): when an agent database or its -wal is a hard
// link to another file, the purge's row delete wrote through the link. Now dbWriteRefusal runs before every agent
// database write: the rows stay, the residual names them (with the reason where the adapter records one), and the
// outside file's bytes are unchanged. Real stages, real databases, real hard links.
import Database from 'better-sqlite3';
import { linkSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { enableSqliteUri } from '../../src/node/sqlite-uri.js';
import { buildFaultStage, type FaultStage, faultService } from '../helpers/fault-stages.js';

const DB: Record<'codex' | 'opencode' | 'hermes', string> = {
  codex: '.codex/state_5.sqlite',
  opencode: '.local/share/opencode/opencode.db',
  hermes: '.hermes/state.db',
};

let stage: FaultStage | undefined;
afterEach(async () => {
  await stage?.dispose();
  stage = undefined;
});

describe.each(['codex', 'opencode', 'hermes'] as const)('%s: a purge never writes through a hard-linked database file', (agent) => {
  it.each(['db', 'wal'] as const)('the %s hard-linked to an outside file: its bytes are unchanged, the rows stay residual', async (mode) => {
    stage = await buildFaultStage(agent);
    const db = join(stage.home, DB[agent]);
    const outside = join(stage.home, '..', `outside-${mode}`);
    if (mode === 'db') {
      linkSync(db, outside);
    } else {
      // A WAL database whose -wal (empty, as after a clean close) is a second name of an outside file.
      enableSqliteUri();
      const conn = new Database(db);
      conn.pragma('journal_mode = WAL');
      conn.close();
      writeFileSync(outside, '');
      linkSync(outside, `${db}-wal`);
    }
    const before = readFileSync(outside);
    const result = await faultService(stage, new NodeFileSystem()).purge(agent, stage.id, { home: stage.home, workspace: stage.workspace, env: stage.env });
    expect(readFileSync(outside).equals(before)).toBe(true);
    // Refused up front by the plan (codex, opencode: nothing removed), or purged with the rows left (hermes): either
    // way the database is not written and its rows are reported with the reason.
    expect(['purged', 'refused']).toContain(result.kind);
    if (result.kind !== 'purged' && result.kind !== 'refused') return;
    const left = (result.kind === 'purged' ? result.residual : result.refused).map((r) => formatArtifact(r, { reason: true }));
    expect(left.some((r) => r.startsWith(db))).toBe(true);
    if (agent !== 'hermes') expect(left.join('\n')).toMatch(/hard links: a write would change another file too/);
  }, 30_000);
});

// Regression (issue 31): grok rewrites its search database without secure_delete, so a purge's row delete left old
// copies of the session's doc (the id in them) in session_search.sqlite's free pages. The purge now runs the shared
// dead-copy pass; when another process holds the database the copies stay, and the result says so (`partial`, exit 7,
// the reason in the residual), never `purged`; once it lets go, a rerun finishes the job.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeClock } from '../../src/node/node-clock.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { purgeExitCode } from '../../src/purge/purge-result.js';
import { formatArtifact } from '../../src/purge/artifact.js';
import { DEAD_COPIES_TABLE } from '../../src/sqlite/finish-dead-copies.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { GROK_IDS, materializeGrokStage } from '../helpers/adapter-grok-stage.js';
import { filesContaining } from '../helpers/finish-interrupt.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const service = (proc: FakeProcessTable) => new PurgeService({ ports: { fs: new NodeFileSystem(), proc, herdr: new FakeHerdr(), clock: new NodeClock() } });

describe('finishing grok purges', () => {
  it('a copy another process keeps in session_search.sqlite makes the purge partial; a rerun after it lets go purges', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mam-grok-finish-'));
    roots.push(root);
    const s = materializeGrokStage(root);
    const id = GROK_IDS.a2;
    const opts = { home: s.home, workspace: s.wsA, env: { HOME: s.home } };
    // Another grok (not this session's: nothing of it names the id) holds the shared index.
    const other = { pid: 77, ppid: 1, argv: ['grok'], openFiles: [s.searchDb] };
    const first = await service(new FakeProcessTable([other], { self: { pid: 500, argv: ['node', 'mam'] } })).purge('grok', id, opts);
    expect(first.kind, JSON.stringify(first)).toBe('partial');
    expect(purgeExitCode(first)).toBe(7);
    if (first.kind !== 'partial') return;
    const left = first.residual.map((a) => formatArtifact(a, { reason: true }));
    expect(left).toEqual(expect.arrayContaining([expect.stringContaining(DEAD_COPIES_TABLE), expect.stringContaining('another process holds the database (pid 77)')]));
    expect(filesContaining(s.grok, id)).toContain(s.searchDb);
    const rerun = await service(new FakeProcessTable([], { self: { pid: 500, argv: ['node', 'mam'] } })).purge('grok', id, opts);
    expect(rerun, JSON.stringify(rerun)).toMatchObject({ kind: 'purged', residual: [] });
    if (rerun.kind === 'purged') expect(rerun.purged).toEqual([expect.objectContaining({ kind: 'rows', db: s.searchDb, table: DEAD_COPIES_TABLE })]);
    const mentions = new Set(rerun.kind === 'purged' ? rerun.mentions.map((m) => (m.kind === 'rows' ? m.db : m.path)) : []);
    expect(filesContaining(s.grok, id).filter((f) => !mentions.has(f))).toEqual([]);
  });
});

// OpenCode in-use was home-wide: any live opencode holding opencode.db made every session of the home "in use". A holder
// now counts for a session only when it can be using it (its command line names the id, or its cwd is in the session's
// directory or project worktree), keeping the home-wide rule when that cannot be told. OpenCode 1.18 exports OPENCODE_PID
// (not OPENCODE_SESSION_ID) to tool shells: a purge run from inside an opencode session is recognised through it.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpencodeAdapter } from '../../../../src/agents/opencode/opencode-adapter.js';
import type { HomeDiscoveryContext } from '../../../../src/agents/types.js';
import { NodeFileSystem } from '../../../../src/node/node-fs.js';
import { FakeClock } from '../../../../src/testing/fs/fake-clock.js';
import { FakeHerdr } from '../../../../src/testing/herdr/fake-herdr.js';
import type { FakeProcess } from '../../../../src/testing/process/fake-process.js';
import { FakeProcessTable } from '../../../../src/testing/process/fake-process-table.js';
import { materializeStage, type RealStage } from '../../../helpers/real-stage.js';

const IN_REPO = 'ses_dd6159fa8ffeNLy5GqcBDiUnlX'; // ws-opencode2, a git project
const GLOBAL = 'ses_dd615360cffeFzbK9W1oQVbVv9'; // ws-opencode, no commits: project `global`
let s: RealStage;
let root: string;
let db: string;
let ctx: HomeDiscoveryContext;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mam-oc-reach-'));
  s = materializeStage('opencode/03-two-sessions-before-delete', root);
  db = join(s.home, '.local/share/opencode/opencode.db');
  ctx = { workspace: join(root, 'ws-opencode2'), home: s.home, env: { ...s.env, PATH: '' } };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function adapter(procs: FakeProcess[], selfEnv: Record<string, string> = {}): OpencodeAdapter {
  const table = new FakeProcessTable(procs, { self: { pid: 50, ppid: 1, argv: ['node', 'mam'], env: selfEnv } });
  return new OpencodeAdapter({ fs: new NodeFileSystem(), proc: table, herdr: new FakeHerdr(), clock: new FakeClock() });
}

const tui = (pid: number, cwd: string | undefined): FakeProcess => ({ pid, ppid: 1, argv: ['opencode'], openFiles: [db, `${db}-wal`], ...(cwd === undefined ? {} : { cwd }) });

describe('opencode in-use is no longer home-wide', () => {
  it('a TUI running in another workspace no longer makes an idle session of this workspace in use', async () => {
    const a = adapter([tui(7, join(root, 'elsewhere'))]);
    expect(await a.inUseHolders(IN_REPO, ctx)).toEqual([]);
  });

  it('a TUI whose cwd is the session\'s directory (or below it) holds it', async () => {
    for (const cwd of [join(root, 'ws-opencode2'), join(root, 'ws-opencode2', 'src')]) {
      expect((await adapter([tui(7, cwd)]).inUseHolders(IN_REPO, ctx)).map((h) => [h.pid, h.signal])).toEqual([[7, 'open-file'], [7, 'open-file']]);
    }
  });

  it('a TUI in another checkout of the same project (a clone: OpenCode 1.18.33 lists the project\'s sessions there) holds it', async () => {
    const clone = join(root, 'clone-of-ws-opencode2');
    const w = new Database(db);
    try {
      const project = w.prepare('SELECT project_id FROM session WHERE id = ?').pluck().get(IN_REPO) as string;
      w.prepare('INSERT INTO project_directory (project_id, directory, time_created) VALUES (?, ?, 1)').run(project, clone);
      expect((await adapter([tui(7, join(clone, 'src'))]).inUseHolders(IN_REPO, ctx)).map((h) => h.pid)).toContain(7);
      w.prepare('DELETE FROM project_directory WHERE directory = ?').run(clone);
      w.prepare("UPDATE project SET sandboxes = ? WHERE id = ?").run(JSON.stringify([clone]), project);
      expect((await adapter([tui(7, clone)]).inUseHolders(IN_REPO, ctx)).map((h) => h.pid)).toContain(7);
      w.prepare("UPDATE project SET sandboxes = '[]' WHERE id = ?").run(project);
      expect(await adapter([tui(7, clone)]).inUseHolders(IN_REPO, ctx)).toEqual([]);
    } finally {
      w.close();
    }
  });

  it('a holder whose cwd cannot be read keeps the home-wide rule', async () => {
    expect((await adapter([tui(7, undefined)]).inUseHolders(IN_REPO, ctx)).length).toBeGreaterThan(0);
  });

  it('a session of the global project (no git) is reachable from anywhere: every holder counts', async () => {
    expect((await adapter([tui(7, join(root, 'elsewhere'))]).inUseHolders(GLOBAL, { ...ctx, workspace: join(root, 'ws-opencode') })).length).toBeGreaterThan(0);
  });

  it('a holder in another directory whose command line names the id counts', async () => {
    const p = { ...tui(7, join(root, 'elsewhere')), argv: ['opencode', '--session', IN_REPO] };
    expect((await adapter([p]).inUseHolders(IN_REPO, ctx)).map((h) => h.signal)).toContain('command-line');
  });

  it('the hints say how the home-wide rule applies', () => {
    expect(adapter([]).inUseHints(IN_REPO, ctx).join('\n')).toContain('counts for every session of the home');
  });
});

describe('a purge run from inside an opencode session (OPENCODE_PID)', () => {
  it('the session that opencode process uses is in use', async () => {
    const a = adapter([{ pid: 77, ppid: 1, argv: ['opencode'], cwd: join(root, 'ws-opencode2') }], { OPENCODE_PID: '77', OPENCODE: '1' });
    expect(await a.inUseHolders(IN_REPO, ctx)).toEqual([{ pid: 77, command: 'opencode (the opencode session this process runs in: OPENCODE_PID)', signal: 'session-env', detail: 'OPENCODE_PID' }]);
  });

  it('an opencode process in another repository is not using this session; a dead or non-opencode pid is no evidence', async () => {
    expect(await adapter([{ pid: 77, ppid: 1, argv: ['opencode'], cwd: join(root, 'elsewhere') }], { OPENCODE_PID: '77' }).inUseHolders(IN_REPO, ctx)).toEqual([]);
    expect(await adapter([], { OPENCODE_PID: '77' }).inUseHolders(IN_REPO, ctx)).toEqual([]);
    expect(await adapter([{ pid: 77, ppid: 1, argv: ['bash'] }], { OPENCODE_PID: '77' }).inUseHolders(IN_REPO, ctx)).toEqual([]);
  });

  it('with its cwd unknown, the opencode process counts for every session', async () => {
    expect((await adapter([{ pid: 77, ppid: 1, argv: ['opencode'] }], { OPENCODE_PID: '77' }).inUseHolders(IN_REPO, ctx)).map((h) => h.detail)).toEqual(['OPENCODE_PID']);
  });
});

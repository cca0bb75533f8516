import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GrokAdapter } from '../../../src/agents/grok/grok-adapter.js';
import { PortError } from '../../../src/errors.js';
import type { RunResult } from '../../../src/ports/process.js';
import { FakeProcessTable } from '../../../src/testing/process/fake-process-table.js';
import { SpyFileSystem, freshId, hashTree, portsWith } from '../../helpers/adapter-agy-files.js';
import { makeTempDir } from '../../helpers/fs-temp.js';
import { strs } from '../../helpers/artifact-strings.js';

let dir: string;
let dispose: () => Promise<void>;
let home: string;

beforeEach(async () => {
  ({ dir, dispose } = await makeTempDir('mam-grok-'));
  home = join(dir, 'home');
  mkdirSync(home);
});
afterEach(() => dispose());

const init = { pid: 1, argv: ['init'] };
const grok = (table = new FakeProcessTable([init]), fs?: SpyFileSystem) => new GrokAdapter(portsWith(table, fs?.port));
const ctx = () => ({ workspace: dir, home: home });
const result = (exitCode: number | null): RunResult => ({ command: 'grok --version', exitCode, signal: null, stdout: '', stderr: '', durationMs: 1, timedOut: false, failed: exitCode !== 0 });

describe('grok: lifecycle', () => {
  it('is a pre-assigned uuid agent exporting GROK_SESSION_ID, resumed with --resume <id>', () => {
    const g = grok();
    expect([g.name, g.ownKey, g.idLifecycle, g.sessionEnvVar]).toEqual(['grok', 'grok_session_id_own', 'pre_assigned', 'GROK_SESSION_ID']);
    const id = freshId();
    expect(g.resumeArgs(id.toUpperCase())).toEqual(['--resume', id]);
    expect(g.resumeArgs('--help')).toEqual([]);
  });

  it('with no grok home there is nothing: no candidate, no verified id, no artifact, nothing removed, nothing written', async () => {
    const id = freshId();
    const before = hashTree(home);
    const g = grok();
    expect(await g.discover(ctx())).toEqual([]);
    expect(await g.verifyArtifact(id, ctx())).toBe(false);
    expect(await g.verifyArtifact(id, ctx(), 'discover')).toBe(false);
    expect(strs(await g.purgeArtifacts(id, ctx()))).toEqual([]);
    expect(strs(await g.residualArtifacts(id, ctx()))).toEqual([]);
    expect(strs(await g.mentions(id, ctx()))).toEqual([]);
    expect(await g.hasArtifacts(id, ctx())).toBe(false);
    expect(await g.captureActiveSessionId({ name: 'g', status: 'running', agent: 'grok' }, ctx())).toEqual({ kind: 'none', reason: 'no-candidate', candidates: [] });
    expect(hashTree(home)).toEqual(before);
  });
});

describe('grok: in use', () => {
  it('a process naming the id in either case, not the caller\'s helper chain; the nearest agent ancestor counts', async () => {
    const id = freshId();
    expect(await grok(new FakeProcessTable([init, { pid: 5, ppid: 1, argv: ['grok', '--resume', id.toUpperCase()] }])).conversationInUse(id, ctx())).toBe(true);
    const chain = [init, { pid: 10, ppid: 1, argv: ['bash'] }, { pid: 20, ppid: 10, argv: ['sh', '-c', `mam purge grok ${id}`] }];
    const self = { pid: 30, ppid: 20, argv: ['node', 'mam', 'purge', 'grok', id] };
    expect(await grok(new FakeProcessTable(chain, { self })).conversationInUse(id, ctx())).toBe(false);
    const underGrok = [init, { pid: 10, ppid: 1, argv: ['grok', '--resume', id] }, ...chain.slice(2)];
    expect((await grok(new FakeProcessTable(underGrok, { self })).inUseHolders(id, ctx())).map((h) => h.pid)).toEqual([10]);
  });

  it('the caller\'s own GROK_SESSION_ID (any spelling) makes it in use; no lsof is asked', async () => {
    const id = freshId();
    const t = new FakeProcessTable([init], { self: { pid: 3, argv: ['node'], env: { GROK_SESSION_ID: id.toUpperCase() } } });
    expect(await grok(t).inUseHolders(id, ctx())).toEqual([expect.objectContaining({ signal: 'session-env', detail: 'GROK_SESSION_ID' })]);
    expect(t.holdersCalls).toBe(0);
  });

  it.each(['memory', '../x', '/etc', '', 'ses_0123456789abAbCdEfGhIjKlMn'])('%j is never in use and reaches nothing', async (bad) => {
    const t = new FakeProcessTable([init, { pid: 5, ppid: 1, argv: ['grok', bad] }]);
    expect(await grok(t).conversationInUse(bad, ctx())).toBe(false);
    expect(t.snapshotCalls).toBe(0);
  });

  it('hints name ps and grok\'s active_sessions.json', () => {
    const id = freshId();
    expect(grok().inUseHints(id, ctx())).toEqual([`ps -axww | grep ${id}`, `cat ${join(home, '.grok', 'active_sessions.json')}`]);
  });
});

describe('grok: authOk runs the binary (the reference preflight)', () => {
  it.each([
    [0, true],
    [1, false],
    [null, false],
  ])('grok --version exiting %s → %s, with HOME set to the context home', async (code, ok) => {
    const t = new FakeProcessTable([init], { onRun: () => result(code) });
    expect(await grok(t).authOk({ ...ctx(), env: { PATH: '/bin' } })).toBe(ok);
    expect(t.runs).toEqual([{ file: 'grok', args: ['--version'], opts: expect.objectContaining({ env: { PATH: '/bin', HOME: home } }) }]);
  });

  it('no grok binary → false', async () => {
    const t = new FakeProcessTable([init], {
      onRun: () => {
        throw new PortError('CommandNotFound', 'proc.run', 'command not found: grok');
      },
    });
    expect(await grok(t).authOk(ctx())).toBe(false);
  });
});

describe('hints never carry an implausible id into a shell command', () => {
  it.each(['; rm -rf ~', '$(reboot)', '../x'])('%j → no hint', (bad) => {
    expect(grok().inUseHints(bad, ctx())).toEqual([]);
  });
});

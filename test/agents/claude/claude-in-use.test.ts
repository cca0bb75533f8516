import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { type FakeProcess, FakeProcessTable } from '../../../src/testing/process/index.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeSessionFile, writeTranscript } from '../../helpers/adapter-claude-sandbox.js';

let sb: ClaudeSandbox;
beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

const NOW = 1_796_000_000_000;
const START = NOW - 600_000;

function claudeWith(procs: FakeProcess[], self: Partial<FakeProcess> = {}): { claude: ClaudeAdapter; table: FakeProcessTable } {
  const table = new FakeProcessTable(procs, { self: { pid: 50, ppid: 40, argv: ['node', 'mam'], ...self } });
  return { claude: new ClaudeAdapter({ ...nodePorts(), proc: table, clock: new FakeClock({ now: NOW }) }), table };
}

describe('ClaudeAdapter in-use', () => {
  it('nothing names the id: free, with one snapshot and no lsof call when no transcript exists', async () => {
    const { claude, table } = claudeWith([{ pid: 40, argv: ['bash'] }]);
    expect(await claude.conversationInUse(freshId(), sb.ctx())).toBe(false);
    expect([table.snapshotCalls, table.holdersCalls]).toEqual([1, 0]);
  });

  it('the caller\'s own session variable (a purge from the session\'s tool shell), either spelling', async () => {
    const id = freshId();
    const { claude } = claudeWith([], { env: { CLAUDE_CODE_SESSION_ID: id.toUpperCase() } });
    expect(await claude.inUseHolders(id, sb.ctx())).toEqual([expect.objectContaining({ pid: 50, signal: 'session-env', detail: 'CLAUDE_CODE_SESSION_ID' })]);
  });

  it('the helper chain naming the id does not count; the claude ancestor naming it does', async () => {
    const id = freshId();
    const chain = (top: string[]) => claudeWith([{ pid: 30, ppid: 1, argv: top }, { pid: 40, ppid: 30, argv: ['sh', '-c', `mam purge claude ${id}`] }], { argv: ['node', 'mam', 'purge', 'claude', id] }).claude;
    expect(await chain(['bash']).conversationInUse(id, sb.ctx())).toBe(false);
    expect(await chain(['claude', '--session-id', id]).inUseHolders(id, sb.ctx())).toEqual([expect.objectContaining({ pid: 30, signal: 'command-line' })]);
  });

  it('a process holding the transcript open with the id on no command line', async () => {
    const id = freshId();
    const t = writeTranscript(sb, id);
    const { claude, table } = claudeWith([{ pid: 77, argv: ['tail', '-f'], openFiles: [t] }]);
    expect(await claude.inUseHolders(id, sb.ctx())).toEqual([expect.objectContaining({ pid: 77, signal: 'open-file', detail: t })]);
    expect(table.holdersCalls).toBe(1);
  });

  it.each([
    ['procStart matches', { procStart: 900 }, { startTicks: 900 }, true],
    ['procStart differs (reused pid)', { procStart: 901, startedAt: START }, { startTicks: 900 }, false],
    ['startedAt matches', { startedAt: START + 700 }, {}, true],
    ['startedAt an hour off (reused pid)', { startedAt: START - 3_600_000 }, {}, false],
    ['startedAt NaN', { startedAt: Number.NaN }, {}, true],
    ['startedAt 0', { startedAt: 0 }, {}, true],
    ['startedAt negative', { startedAt: -5 }, {}, true],
    ['startedAt huge', { startedAt: 1e300 }, {}, true],
    ['startedAt boolean', { startedAt: true }, {}, true],
    ['startedAt string', { startedAt: String(START) }, {}, true],
  ])('sessions/<pid>.json of an alive pid: %s → live=%s', async (_l, fields, proc, live) => {
    const id = freshId();
    const file = writeSessionFile(sb, 4000, id, fields);
    const { claude } = claudeWith([{ pid: 4000, argv: ['claude'], startedAtMs: START, ...proc }]);
    const holders = await claude.inUseHolders(id, sb.ctx());
    expect(holders).toEqual(live ? [{ pid: 4000, command: 'claude', signal: 'pid-file', detail: file }] : []);
  });

  it('a session file whose pid is dead is stale whatever it says', async () => {
    const id = freshId();
    writeSessionFile(sb, 4001, id, { startedAt: Number.NaN, procStart: 'x' });
    expect(await claudeWith([]).claude.conversationInUse(id, sb.ctx())).toBe(false);
  });

  it('a half-written session file naming the id counts through its file-name pid', async () => {
    const id = freshId();
    const { claude } = claudeWith([{ pid: 4002, argv: ['claude'] }]);
    const p = writeSessionFile(sb, 4002, id);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(p, `{"pid":4002,"sessionId":"${id}","startedAt":`);
    expect(await claude.inUseHolders(id, sb.ctx())).toEqual([expect.objectContaining({ pid: 4002, signal: 'pid-file' })]);
  });

  it('hints name the real sessions/ dir first (CLAUDE_CONFIG_DIR honoured), then ps', () => {
    const id = freshId();
    const { claude } = claudeWith([]);
    expect(claude.inUseHints(id.toUpperCase(), sb.ctx())).toEqual([
      `ls -l ${join(sb.config, 'sessions')}/`,
      `grep -l ${id} ${join(sb.config, 'sessions')}/*.json`,
      `ps -axww | grep ${id}`,
    ]);
    expect(claude.inUseHints("x'; rm -rf ~ #", sb.ctx()).slice(1)).toEqual([
      `grep -l 'x'\\''; rm -rf ~ #' ${join(sb.config, 'sessions')}/*.json`,
      `ps -axww | grep -F -- 'x'\\''; rm -rf ~ #'`,
    ]);
    const cfg = join(sb.root, 'my cfg');
    expect(claude.inUseHints(id, sb.ctx({ env: { CLAUDE_CONFIG_DIR: cfg } }))[0]).toBe(`ls -l '${join(cfg, 'sessions')}'/`);
  });

  it('the caller\'s CLAUDE_CONFIG_DIR applies to the caller\'s own home only', async () => {
    const id = freshId();
    const cfg = join(sb.root, 'cfg');
    const { claude } = claudeWith([{ pid: 4003, argv: ['claude'] }], { env: { HOME: sb.home, CLAUDE_CONFIG_DIR: cfg } });
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(join(cfg, 'sessions'), { recursive: true });
    writeFileSync(join(cfg, 'sessions', '4003.json'), JSON.stringify({ pid: 4003, sessionId: id }));
    const own = { workspace: sb.ws, home: sb.home };
    expect(await claude.conversationInUse(id, own)).toBe(true);
    expect(claude.inUseHints(id, own)[0]).toBe(`ls -l ${join(cfg, 'sessions')}/`);
    mkdirSync(join(sb.root, 'other-home'));
    expect(await claude.conversationInUse(id, { workspace: sb.ws, home: join(sb.root, 'other-home') })).toBe(false);
  });
});

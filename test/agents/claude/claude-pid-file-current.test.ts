// After /clear in a TUI started with --resume <id> (Claude Code 2.1.332) the old id still read as in use: the TUI's command
// line (and the tmux server that launched it) still name it. The pid file's current sessionId now decides; with no
// readable pid file the command line keeps counting (the conservative answer).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ClaudeAdapter } from '../../../src/agents/claude/claude-adapter.js';
import { nodePorts } from '../../../src/node/node-ports.js';
import { FakeClock } from '../../../src/testing/fs/fake-clock.js';
import { type FakeProcess, FakeProcessTable } from '../../../src/testing/process/index.js';
import { type ClaudeSandbox, freshId, makeClaudeSandbox, writeSessionFile } from '../../helpers/adapter-claude-sandbox.js';

let sb: ClaudeSandbox;
beforeEach(async () => {
  sb = await makeClaudeSandbox();
});
afterEach(() => sb.dispose());

const NOW = 1_796_000_000_000;
const claudeWith = (procs: FakeProcess[]): ClaudeAdapter =>
  new ClaudeAdapter({ ...nodePorts(), proc: new FakeProcessTable(procs, { self: { pid: 50, ppid: 1, argv: ['node', 'mam'] } }), clock: new FakeClock({ now: NOW }) });
const signals = async (c: ClaudeAdapter, id: string): Promise<string[]> => (await c.inUseHolders(id, sb.ctx())).map((h) => `${h.pid}:${h.signal}`).sort();

describe('Claude in-use after /clear: the pid file names the conversation a process is on now', () => {
  const A = freshId();
  const B = freshId();
  const tui: FakeProcess = { pid: 4242, ppid: 1, argv: ['claude', '--resume', A], startTicks: 999 };

  it('command line names A, pid file names B: A is not held, B is (through the pid file)', async () => {
    writeSessionFile(sb, 4242, B, { procStart: 999 });
    const c = claudeWith([tui]);
    expect(await signals(c, A)).toEqual([]);
    expect(await signals(c, B)).toEqual(['4242:pid-file']);
  });

  it('command line names A, pid file names A: held both ways', async () => {
    writeSessionFile(sb, 4242, A, { procStart: 999 });
    expect(await signals(claudeWith([tui]), A)).toEqual(['4242:command-line', '4242:pid-file']);
  });

  it('no pid file, an unreadable one, or one another process wrote (a reused pid): the command line still counts', async () => {
    expect(await signals(claudeWith([tui]), A)).toEqual(['4242:command-line']);
    mkdirSync(join(sb.config, 'sessions'), { recursive: true });
    writeFileSync(join(sb.config, 'sessions', '4242.json'), '{not json');
    expect(await signals(claudeWith([tui]), A)).toEqual(['4242:command-line']);
    writeSessionFile(sb, 4242, B, { procStart: 111 });
    expect(await signals(claudeWith([tui]), A)).toEqual(['4242:command-line']);
  });

  it('the tmux server that launched the TUI names A on its command line: it counts only while a Claude below it may be on A', async () => {
    const tmux: FakeProcess = { pid: 100, ppid: 1, argv: ['tmux', 'new-session', '-d', 'env', '-i', 'claude', '--resume', A] };
    const child = { ...tui, ppid: 100 };
    writeSessionFile(sb, 4242, B, { procStart: 999 });
    expect(await signals(claudeWith([tmux, child]), A)).toEqual([]);
    // Its Claude's pid file still names A (before /clear), or cannot be read: the launcher counts.
    writeSessionFile(sb, 4242, A, { procStart: 999 });
    expect(await signals(claudeWith([tmux, child]), A)).toEqual(['100:command-line', '4242:command-line', '4242:pid-file']);
    writeFileSync(join(sb.config, 'sessions', '4242.json'), '{not json');
    expect(await signals(claudeWith([tmux, child]), A)).toEqual(['100:command-line', '4242:command-line']);
    // A launcher with no Claude below it (the TUI exited, or never started) keeps counting.
    expect(await signals(claudeWith([tmux]), A)).toEqual(['100:command-line']);
  });
});

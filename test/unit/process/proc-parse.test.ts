import { describe, expect, it } from 'vitest';
import { parseBootTime, parseProcStat, splitCmdline } from '../../../src/node/proc-parse.js';

const tail = (ppid: number, start: number): string => `S ${ppid} 100 100 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 ${start} 1000 10 18446744073709551615`;

describe('parseProcStat', () => {
  it('reads pid, comm, state, ppid and field 22', () => {
    expect(parseProcStat(`1234 (node) ${tail(77, 4242)}\n`)).toEqual({ pid: 1234, comm: 'node', state: 'S', ppid: 77, startTicks: 4242 });
  });

  it.each(['tmux: server', 'a) (b', ') 1 2 (', '((x))', 'Web Content'])('keeps a comm with spaces and parentheses: %j', (comm) => {
    expect(parseProcStat(`55 (${comm}) ${tail(9, 31)}`)).toMatchObject({ pid: 55, comm, ppid: 9, startTicks: 31 });
  });

  it('rejects text that is not a stat line', () => {
    expect(parseProcStat('')).toBeNull();
    expect(parseProcStat('12 node S 1 2')).toBeNull();
    expect(parseProcStat('12 (node) S 1')).toBeNull();
  });
});

describe('splitCmdline', () => {
  it('splits on NUL, keeping empty arguments but not the final terminator', () => {
    expect(splitCmdline('node\0-e\0\0x\0')).toEqual(['node', '-e', '', 'x']);
    expect(splitCmdline('')).toEqual([]);
    // A process that rewrote its title may drop the terminator.
    expect(splitCmdline('tmux: server')).toEqual(['tmux: server']);
  });
});

describe('parseBootTime', () => {
  it('reads btime', () => {
    expect(parseBootTime('cpu  1 2 3\nbtime 1796003347\nprocesses 9\n')).toBe(1796003347);
    expect(parseBootTime('cpu 1 2 3\n')).toBeNull();
  });
});

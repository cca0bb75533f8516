import { describe, expect, it } from 'vitest';
import { inferArgsColumn, parsePsOutput, splitCommArgs } from '../../../src/node/ps-parse.js';

// procps-ng 4: pid and ppid right-aligned, lstart, comm padded to 15, then args.
const PROCPS = [
  '    1     0 Mon Nov 30 01:49:07 2026 init            /sbin/init splash',
  '    2     0 Mon Nov 30 01:49:07 2026 kthreadd        [kthreadd]',
  '    3     2 Mon Nov 30 01:49:07 2026 pool_workqueue_ [pool_workqueue_release]',
  ' 4918     1 Mon Nov  3 01:53:49 2026 sleep           weird (name) x 30',
  ' 5001  4000 Mon Nov 30 01:53:50 2026 tmux: server    tmux new -s work',
  ' 5002  5001 Mon Nov 30 01:53:51 2026 node            node /usr/local/bin/claude --resume a b  c',
  '',
].join('\n');

// BSD/macOS: comm is the executable path, padded to the widest one.
const BSD = [
  '  1     0 Mon Nov 30 01:49:07 2026 /sbin/launchd                                    /sbin/launchd',
  '501   480 Mon Nov 30 01:50:00 2026 /Applications/Google Chrome.app/Contents/MacOS/G /Applications/Google Chrome.app/Contents/MacOS/Google Chrome --flag',
  '777   501 Mon Nov 30 01:51:00 2026 /bin/zsh                                         -zsh',
].join('\n');

describe('parsePsOutput', () => {
  it('parses procps output, including comm with blanks and renamed processes', () => {
    const rows = parsePsOutput(PROCPS);
    expect(rows.map((r) => [r.pid, r.ppid, r.comm, r.command])).toEqual([
      [1, 0, 'init', '/sbin/init splash'],
      [2, 0, 'kthreadd', '[kthreadd]'],
      [3, 2, 'pool_workqueue_', '[pool_workqueue_release]'],
      [4918, 1, 'sleep', 'weird (name) x 30'],
      [5001, 4000, 'tmux: server', 'tmux new -s work'],
      [5002, 5001, 'node', 'node /usr/local/bin/claude --resume a b  c'],
    ]);
    expect(rows[0]?.startedAtMs).toBe(Date.UTC(2026, 10, 30, 1, 49, 7));
    expect(rows[3]?.startedAtMs).toBe(Date.UTC(2026, 10, 3, 1, 53, 49));
    expect(rows.every((r) => r.argv === undefined)).toBe(true);
  });

  it('parses BSD output where comm is a path with blanks', () => {
    const rows = parsePsOutput(BSD);
    expect(rows.map((r) => [r.pid, r.comm, r.command])).toEqual([
      [1, '/sbin/launchd', '/sbin/launchd'],
      [501, '/Applications/Google Chrome.app/Contents/MacOS/G', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome --flag'],
      [777, '/bin/zsh', '-zsh'],
    ]);
  });

  it('skips lines that do not parse, and keeps a process whose start cannot be read with a null start', () => {
    expect(parsePsOutput('  PID  PPID STARTED\nnonsense\n 12 1 Mon Foo 30 01:49:07 2026 x y\n')).toEqual([
      { pid: 12, ppid: 1, startedAtMs: null, comm: 'x', command: 'y' },
    ]);
  });

  it('parses a single line (ps -p) by content', () => {
    const [row] = parsePsOutput(' 5001  4000 Mon Nov 30 01:53:50 2026 tmux: server    tmux: server\n');
    expect(row).toMatchObject({ pid: 5001, comm: 'tmux: server', command: 'tmux: server' });
  });
});

describe('inferArgsColumn', () => {
  it('finds the column every line has a blank before', () => {
    expect(inferArgsColumn(['init            /sbin/init', 'kthreadd        [kthreadd]', 'pool_workqueue_ [p]'])).toBe(16);
  });

  it('finds a wide BSD column past blanks inside one comm, and tolerates a stray line', () => {
    const wide = ['/sbin/launchd  /sbin/launchd', '/App/G Chrome  /App/G Chrome --x', '/bin/zsh       -zsh'];
    expect(inferArgsColumn(wide)).toBe(15);
    const many = [...Array.from({ length: 30 }, () => 'sh              sh -c x'), 'node             weird'];
    expect(inferArgsColumn(many)).toBe(16);
  });

  it('gives up on fewer than three lines', () => {
    expect(inferArgsColumn(['a b', 'c d'])).toBeUndefined();
  });
});

describe('splitCommArgs', () => {
  it('takes the longest comm the args repeat', () => {
    expect(splitCommArgs('tmux: server    tmux: server')).toEqual({ comm: 'tmux: server', args: 'tmux: server' });
    expect(splitCommArgs('node            node x.js')).toEqual({ comm: 'node', args: 'node x.js' });
  });

  it('falls back on the first blank when args do not repeat comm', () => {
    expect(splitCommArgs('sleep           weird (name) x 30')).toEqual({ comm: 'sleep', args: 'weird (name) x 30' });
  });

  it('uses the given column when it is a token start', () => {
    expect(splitCommArgs('a b c', 4)).toEqual({ comm: 'a b', args: 'c' });
    expect(splitCommArgs('a b c', 3)).toEqual({ comm: 'a', args: 'b c' });
  });

  it('handles a line with comm only', () => {
    expect(splitCommArgs('zombie')).toEqual({ comm: 'zombie', args: '' });
  });
});

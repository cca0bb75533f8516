import { describe, expect, it } from 'vitest';
import { parseLsofFields, unescapeLsofName } from '../../../src/node/lsof-parse.js';
import { matchHolders } from '../../../src/node/lsof-targets.js';

const OUTPUT = ['p100', 'cagy', 'f12', 'n/real/conv/a.db', 'f13', 'n/real/conv/a.db-wal', 'p200', 'cnode', 'f3', 'n/real/presence/a.lock', 'f4', 'n/real/conv/a.db', ''].join('\n');

describe('parseLsofFields', () => {
  it('reads one entry per name, carrying the pid and command before it', () => {
    expect(parseLsofFields(OUTPUT)).toEqual([
      { pid: 100, command: 'agy', name: '/real/conv/a.db' },
      { pid: 100, command: 'agy', name: '/real/conv/a.db-wal' },
      { pid: 200, command: 'node', name: '/real/presence/a.lock' },
      { pid: 200, command: 'node', name: '/real/conv/a.db' },
    ]);
  });

  it('reads nothing from empty output (lsof exit 1) and ignores names before any pid', () => {
    expect(parseLsofFields('')).toEqual([]);
    expect(parseLsofFields('n/x\np1\n')).toEqual([]);
  });
});

describe('unescapeLsofName', () => {
  it('decodes \\xNN bytes as UTF-8 and C escapes', () => {
    expect(unescapeLsofName('/tmp/caf\\xc3\\xa9.db')).toBe('/tmp/café.db');
    expect(unescapeLsofName('/tmp/a\\tb')).toBe('/tmp/a\tb');
    expect(unescapeLsofName('/tmp/plain name')).toBe('/tmp/plain name');
  });
});

describe('matchHolders', () => {
  const targets = new Map<string, string[]>([
    ['/real/conv/a.db', ['/home/me/conv/a.db']],
    ['/real/conv/a.db-wal', ['/home/me/conv/a.db-wal']],
    ['/real/presence/a.lock', ['/home/me/presence/a.lock', '/real/presence/a.lock']],
  ]);

  it('maps real names back to the asked paths, one holder per pid and path, sorted by pid', () => {
    const entries = [...parseLsofFields(OUTPUT), { pid: 50, command: 'x', name: '/real/conv/a.db' }, { pid: 100, command: 'agy', name: '/real/conv/a.db' }];
    expect(matchHolders(entries, targets)).toEqual([
      { pid: 50, command: 'x', path: '/home/me/conv/a.db' },
      { pid: 100, command: 'agy', path: '/home/me/conv/a.db' },
      { pid: 100, command: 'agy', path: '/home/me/conv/a.db-wal' },
      { pid: 200, command: 'node', path: '/home/me/presence/a.lock' },
      { pid: 200, command: 'node', path: '/real/presence/a.lock' },
      { pid: 200, command: 'node', path: '/home/me/conv/a.db' },
    ]);
  });

  it('drops names nobody asked about (a mount point makes lsof list its whole filesystem)', () => {
    expect(matchHolders([{ pid: 1, command: 'x', name: '/real/conv/other.db' }], targets)).toEqual([]);
  });

  it('matches a name lsof decorated with a note or escaped', () => {
    const t = new Map([['/tmp/café.db', ['/tmp/café.db']]]);
    expect(matchHolders([{ pid: 7, command: 'x', name: '/tmp/caf\\xc3\\xa9.db (deleted)' }], t)).toEqual([{ pid: 7, command: 'x', path: '/tmp/café.db' }]);
  });
});

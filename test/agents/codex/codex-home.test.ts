import { describe, expect, it } from 'vitest';
import { codexHome } from '../../../src/agents/codex/codex-home.js';

describe('codexHome', () => {
  it('is CODEX_HOME, else <home>/.codex', () => {
    expect(codexHome({ CODEX_HOME: '/data/cx/' }, '/home/me').home).toBe('/data/cx');
    expect(codexHome({}, '/home/me')).toEqual({
      home: '/home/me/.codex',
      sessions: '/home/me/.codex/sessions',
      archived: '/home/me/.codex/archived_sessions',
      snapshots: '/home/me/.codex/shell_snapshots',
      locks: '/home/me/.codex/thread-writer-locks',
      dbDirs: ['/home/me/.codex'],
    });
  });

  it('ignores a relative, empty or NUL-bearing CODEX_HOME', () => {
    for (const v of ['rel/cx', '', '/a\0b']) expect(codexHome({ CODEX_HOME: v }, '/home/me').home).toBe('/home/me/.codex');
  });

  it('looks for databases in CODEX_SQLITE_HOME too', () => {
    expect(codexHome({ CODEX_SQLITE_HOME: '/db' }, '/home/me').dbDirs).toEqual(['/db', '/home/me/.codex']);
    expect(codexHome({ CODEX_SQLITE_HOME: '/home/me/.codex' }, '/home/me').dbDirs).toEqual(['/home/me/.codex']);
  });
});

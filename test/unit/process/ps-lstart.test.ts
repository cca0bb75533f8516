import { afterEach, describe, expect, it } from 'vitest';
import { parseLstart } from '../../../src/node/ps-lstart.js';
import { psEnv } from '../../../src/node/ps-table.js';

describe('parseLstart', () => {
  const savedTz = process.env['TZ'];
  afterEach(() => {
    if (savedTz === undefined) delete process.env['TZ'];
    else process.env['TZ'] = savedTz;
  });

  it('reads lstart as UTC', () => {
    expect(parseLstart('Mon Nov 30 01:49:45 2026')).toBe(Date.UTC(2026, 10, 30, 1, 49, 45));
    expect(parseLstart('Thu Jan  1 00:00:00 1970')).toBe(0);
    expect(parseLstart('  Sat Feb 29 23:59:59 2028 ')).toBe(Date.UTC(2028, 1, 29, 23, 59, 59));
  });

  // Europe/Berlin 2026: 02:00–03:00 on Mar 29 does not exist, 02:00–03:00 on Oct 25 happens twice.
  const DST_CASES: Array<[string, number]> = [
    ['Sun Mar 29 02:30:00 2026', Date.UTC(2026, 2, 29, 2, 30, 0)],
    ['Sun Oct 25 02:30:00 2026', Date.UTC(2026, 9, 25, 2, 30, 0)],
    ['Sun Oct 25 01:30:00 2026', Date.UTC(2026, 9, 25, 1, 30, 0)],
  ];

  it.each(DST_CASES)('reads %s the same whatever TZ the caller has', (text, utc) => {
    const results = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe'].map((tz) => {
      process.env['TZ'] = tz;
      return parseLstart(text);
    });
    expect(results).toEqual([utc, utc, utc, utc]);
  });

  it('would differ under Europe/Berlin if read as local time (the zone is really in effect)', () => {
    process.env['TZ'] = 'Europe/Berlin';
    const local = new Date(2026, 9, 25, 2, 30, 0).getTime();
    expect(local).not.toBe(parseLstart('Sun Oct 25 02:30:00 2026'));
  });

  it.each(['', 'garbage', 'Mon Foo 30 01:49:45 2026', 'Mon Feb 30 01:49:45 2026', 'Mon Nov 30 24:00:00 2026', 'Mon Nov 30 01:49 2026', 'Mon Nov 30 01:49:45 2026 extra'])(
    'rejects %j',
    (text) => {
      expect(parseLstart(text)).toBeNull();
    },
  );
});

describe('psEnv', () => {
  it('runs ps under TZ=UTC0 and LC_ALL=C with only the caller PATH', () => {
    expect(psEnv({ PATH: '/x/bin', TZ: 'Europe/Berlin', LC_ALL: 'de_DE.UTF-8', HOME: '/h' })).toEqual({ PATH: '/x/bin', TZ: 'UTC0', LC_ALL: 'C' });
    expect(psEnv({}).PATH).toContain('/usr/bin');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseLstart } from '../../src/node/ps-lstart.js';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number): string => String(n).padStart(2, '0');

// What `ps -o lstart=` prints under TZ=UTC0 LC_ALL=C (procps pads the day with a blank).
function lstartOf(ms: number): string {
  const d = new Date(ms);
  const day = String(d.getUTCDate()).padStart(2, ' ');
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${day} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
}

describe('parseLstart', () => {
  it('round-trips every second from 1970 to 2200', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(2200, 0, 1) / 1000 }), (s) => {
        expect(parseLstart(lstartOf(s * 1000))).toBe(s * 1000);
      }),
      { numRuns: 2000 },
    );
  });
});

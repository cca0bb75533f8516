import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProcStat, splitCmdline } from '../../src/node/proc-parse.js';

describe('/proc parsers', () => {
  it('parseProcStat recovers any comm (spaces, parentheses) and the numbers after it', () => {
    const comm = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '(', ')', ':', '/', '1'), minLength: 0, maxLength: 16 });
    fc.assert(
      fc.property(comm, fc.integer({ min: 1, max: 4_194_304 }), fc.integer({ min: 0, max: 4_194_304 }), fc.nat(), (c, pid, ppid, ticks) => {
        const line = `${pid} (${c}) R ${ppid} 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 ${ticks} 0 0\n`;
        expect(parseProcStat(line)).toEqual({ pid, comm: c, state: 'R', ppid, startTicks: ticks });
      }),
    );
  });

  it('splitCmdline inverts a NUL-joined, NUL-terminated argv', () => {
    fc.assert(
      fc.property(fc.array(fc.string().filter((s) => !s.includes('\0')), { minLength: 1, maxLength: 8 }), (argv) => {
        expect(splitCmdline(`${argv.join('\0')}\0`)).toEqual(argv);
      }),
    );
  });
});

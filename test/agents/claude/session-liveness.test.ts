import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sessionLiveness } from '../../../src/agents/claude/session-liveness.js';
import type { ProcessInfo } from '../../../src/ports/process.js';

const NOW = 1_796_000_000_000;
const START = NOW - 3_600_000;
const PID = 4242;

function table(proc: Partial<ProcessInfo> | null): Map<number, ProcessInfo> {
  if (proc === null) return new Map();
  return new Map([[PID, { pid: PID, ppid: 1, startedAtMs: START, command: 'claude --session-id x', comm: 'claude', ...proc }]]);
}

const judge = (fields: { procStart?: unknown; startedAt?: unknown }, proc: Partial<ProcessInfo> | null = {}) =>
  sessionLiveness({ pids: [PID], procStart: fields.procStart, startedAt: fields.startedAt }, table(proc), NOW);

describe('sessionLiveness (claude sessions/<pid>.json)', () => {
  it('a dead pid is stale whatever the file says', () => {
    for (const startedAt of [START, Number.NaN, 0, -1, 'x', true, 1e400]) {
      expect(judge({ startedAt, procStart: 77 }, null)).toEqual({ kind: 'stale', reason: 'dead' });
    }
  });

  it('procStart equal to the start ticks is live; a different one is a reused pid', () => {
    expect(judge({ procStart: 123456, startedAt: 5 }, { startTicks: 123456 })).toMatchObject({ kind: 'live', by: 'proc-start', pid: PID });
    expect(judge({ procStart: 123457, startedAt: START }, { startTicks: 123456 })).toEqual({ kind: 'stale', reason: 'reused' });
    expect(judge({ procStart: '123456' }, { startTicks: 123456 })).toMatchObject({ kind: 'live', by: 'proc-start' });
  });

  it('falls back to startedAt when there are no start ticks to compare (no /proc) or procStart is unusable', () => {
    expect(judge({ procStart: 123456, startedAt: START + 800 }, {})).toMatchObject({ kind: 'live', by: 'started-at' });
    expect(judge({ procStart: 'soon', startedAt: START - 3_600_000 }, { startTicks: 9 })).toEqual({ kind: 'stale', reason: 'reused' });
  });

  it('startedAt within the start window is live; an hour off is a reused pid', () => {
    expect(judge({ startedAt: START })).toMatchObject({ kind: 'live', by: 'started-at' });
    expect(judge({ startedAt: START - 1_500 })).toMatchObject({ kind: 'live' });
    expect(judge({ startedAt: START + 4_000 })).toMatchObject({ kind: 'live' });
    expect(judge({ startedAt: START - 3_600_000 })).toEqual({ kind: 'stale', reason: 'reused' });
    expect(judge({ startedAt: START + 3_600_000 - 1 })).toEqual({ kind: 'stale', reason: 'reused' });
  });

  it.each([
    ['NaN', Number.NaN],
    ['0', 0],
    ['negative', -1_795_999_188_000],
    ['huge integer (overflows)', 1e400],
    ['huge integer (inexact)', 123456789012345678901234567890],
    ['boolean', true],
    ['string', '1795999188000'],
    ['null', null],
    ['missing', undefined],
    ['seconds, not ms', 1_795_999_188],
    ['in the future', NOW + 10 * 86_400_000],
  ])('a startedAt that cannot be told (%s) counts as live when the pid is alive', (_label, startedAt) => {
    expect(judge({ startedAt })).toMatchObject({ kind: 'live', by: 'cannot-tell' });
  });

  it('an unknown process start cannot tell either: live', () => {
    expect(judge({ startedAt: START - 3_600_000 }, { startedAtMs: null })).toMatchObject({ kind: 'live', by: 'cannot-tell' });
  });

  it('either pid the file names may be the live one', () => {
    const v = sessionLiveness({ pids: [1, PID], procStart: undefined, startedAt: START }, table({}), NOW);
    expect(v).toMatchObject({ kind: 'live', pid: PID });
  });

  it('law: only a provable start mismatch (or a dead pid) is ever stale', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.option(fc.nat(), { nil: undefined }), (procStart, startedAt, ticks) => {
        const v = judge({ procStart, startedAt }, ticks === undefined ? {} : { startTicks: ticks });
        if (v.kind === 'stale') {
          const precise = ticks !== undefined && (typeof procStart === 'number' || typeof procStart === 'string');
          expect(precise || typeof startedAt === 'number').toBe(true);
        }
      }),
    );
  });
});

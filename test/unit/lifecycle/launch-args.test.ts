import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../../src/ids/agent-names.js';
import { launchArgs, preAssignedId } from '../../../src/lifecycle/launch-args.js';
import { sessionInstant } from '../../../src/lifecycle/new-session-row.js';

describe('launch arguments', () => {
  it('claude and grok carry the pre-assigned id; opencode runs --auto --standalone; the others take nothing', () => {
    const got = Object.fromEntries(AGENT_NAMES.map((a) => [a, launchArgs(a, preAssignedId(a))]));
    expect(got['claude']).toEqual(['--session-id', expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(got['grok']).toEqual(['--session-id', expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(got).toMatchObject({ agy: [], codex: [], hermes: [], opencode: ['--auto', '--standalone'] });
  });
});

describe('session instants', () => {
  it('seconds-precision created-at and epoch; never the created-at of the row it replaces', () => {
    expect(sessionInstant(1_767_225_600_999)).toEqual({ createdAt: '2026-01-01T00:00:00Z', epoch: 1_767_225_600 });
    expect(sessionInstant(1_767_225_600_999, '2026-01-01T00:00:00Z')).toEqual({ createdAt: '2026-01-01T00:00:01Z', epoch: 1_767_225_600 });
  });

  it('never any of several created-ats: the replaced row and the instance a crashed run already registered', () => {
    const both = ['2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z'];
    expect(sessionInstant(1_767_225_600_999, both)).toEqual({ createdAt: '2026-01-01T00:00:02Z', epoch: 1_767_225_600 });
    expect(sessionInstant(1_767_225_600_999, [null, undefined])).toEqual({ createdAt: '2026-01-01T00:00:00Z', epoch: 1_767_225_600 });
  });

  it('after every created-at it avoids, never between: three instances inside one second are in order, none repeats', () => {
    const first = sessionInstant(1_767_225_600_100).createdAt;
    const second = sessionInstant(1_767_225_600_200, first).createdAt;
    const third = sessionInstant(1_767_225_600_300, second).createdAt;
    expect([first, second, third]).toEqual(['2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', '2026-01-01T00:00:02Z']);
    // A created-at written to the millisecond (another tool's row) and one that is not a date at all.
    expect(sessionInstant(1_767_225_600_100, '2026-01-01T00:00:00.500Z').createdAt).toBe('2026-01-01T00:00:01Z');
    expect(sessionInstant(1_767_225_600_100, 'yesterday').createdAt).toBe('2026-01-01T00:00:00Z');
    // Older created-ats do not move it.
    expect(sessionInstant(1_767_225_600_100, '2025-12-31T23:59:59Z').createdAt).toBe('2026-01-01T00:00:00Z');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES } from '../../src/ids/agent-names.js';
import { rowSurelyValid } from '../../src/registry/row-fast-check.js';
import { SESSION_STATUSES, SessionRowSchema } from '../../src/registry/session-row.js';

// Values near each field's edge: right and wrong types, odd numbers, near-miss enum spellings.
const odd = fc.constantFrom<unknown>(
  undefined, null, '', 'x', 0, -1, 1.5, Number.NaN, Infinity, -Infinity, 2 ** 53, Number.MAX_SAFE_INTEGER, true, false,
  [], {}, ['a'], { cwd: 'x' }, 'Claude', 'CLAUDE', 'Running', 'discovered ', ...AGENT_NAMES, ...SESSION_STATUSES,
  'discovered', 'pending-discovery', 'assigned',
);
const paneValue = fc.oneof(
  odd,
  fc.record({ cwd: odd, pid: odd, cmd: odd, extra: odd }, { requiredKeys: [] }),
  fc.constant(Object.create(null) as unknown),
  fc.constant(new Date(0) as unknown),
);
const FIELDS = [
  'name', 'status', 'role', 'agent', 'herdr_session', 'herdr_server', 'herdr_workspace', 'herdr_session_created_at',
  'herdr_session_epoch', 'session_id_source', 'session_id_verified', 'claude_session_id_own', 'agy_conversation_id_own',
  'codex_session_id_own', 'grok_session_id_own', 'hermes_conversation_id_own', 'opencode_session_id_own', 'extra_field',
] as const;
const validish = fc.record(
  {
    name: fc.oneof(fc.string(), odd),
    status: fc.oneof(fc.constantFrom(...SESSION_STATUSES), odd),
    ...Object.fromEntries(FIELDS.slice(2).map((f) => [f, fc.oneof(fc.string(), fc.integer(), odd)])),
    pane: paneValue,
  },
  { requiredKeys: [] },
);

describe('the cheap row check', () => {
  it('never accepts a row that SessionRowSchema refuses', () => {
    fc.assert(
      fc.property(validish, (row) => {
        if (rowSurelyValid(row as Record<string, unknown>)) expect(SessionRowSchema.safeParse(row).success).toBe(true);
      }),
      { numRuns: 20_000 },
    );
  });

  it('accepts the common rows (so zod runs only on the unusual ones)', () => {
    const row = {
      name: 'reviewer-claude-01', status: 'running', role: 'planner', agent: 'claude', herdr_session: 'default',
      herdr_session_epoch: 1700000000, session_id_source: 'discovered', session_id_verified: true,
      claude_session_id_own: 'a7800001-0000-4000-8000-000000000000', pane: { cwd: '/w', pid: 42, cmd: 'claude', x: [1] }, kept: { a: 1 },
    };
    expect(rowSurelyValid(row)).toBe(true);
    expect(rowSurelyValid({ name: 'a', status: 'stopped' })).toBe(true);
    expect(rowSurelyValid({ name: 'a', status: 'stopped', agent: null })).toBe(false);
    expect(rowSurelyValid({ name: '', status: 'stopped' })).toBe(false);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAgentId } from '../../src/ids/agent-id.js';
import { AGENT_NAMES } from '../../src/ids/agent-names.js';

const agent = fc.constantFrom(...AGENT_NAMES);
const SAFE_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|ses_[0-9a-f]{12}[0-9A-Za-z]{14}|[0-9]{8}_[0-9]{6}_[0-9a-f]{6,12}|cron_[0-9A-Za-z][0-9A-Za-z_-]*_[0-9]{8}_[0-9]{6})$/;

describe('ids: laws', () => {
  it('an accepted id is always a single safe path component', () => {
    fc.assert(
      fc.property(agent, fc.oneof(fc.string(), fc.uuid(), fc.string({ unit: 'binary' })), (a, s) => {
        const id = normalizeAgentId(a, s);
        if (id !== null) {
          expect(id).toMatch(SAFE_ID);
          expect(id).not.toMatch(/[/\\\0.]/);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('normalising is idempotent and case-insensitive for uuids', () => {
    fc.assert(
      fc.property(fc.constantFrom('claude', 'agy', 'codex', 'grok', 'hermes' as const), fc.uuid(), (a, u) => {
        const lower = normalizeAgentId(a, u);
        expect(lower).toBe(u.toLowerCase());
        expect(normalizeAgentId(a, u.toUpperCase())).toBe(lower);
        expect(normalizeAgentId(a, lower)).toBe(lower);
      }),
    );
  });

  it('hermes: a stamped or cron id survives exactly, and any change of one character that leaves its shape is refused', () => {
    const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: n, maxLength: n });
    const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n });
    const stamped = fc.tuple(digits(8), digits(6), fc.constantFrom(6, 8, 12).chain(hex)).map(([d, t, h]) => `${d}_${t}_${h}`);
    const job = fc.string({ unit: fc.constantFrom(...'abcXYZ019_-'), minLength: 1, maxLength: 20 }).filter((j) => /^[0-9A-Za-z]/.test(j));
    const cron = fc.tuple(job, digits(8), digits(6)).map(([j, d, t]) => `cron_${j}_${d}_${t}`);
    fc.assert(
      fc.property(fc.oneof(stamped, cron), fc.constantFrom('/', '\\', '\0', '.', ' ', '\n'), fc.nat(), (id, evil, at) => {
        expect(normalizeAgentId('hermes', id)).toBe(id);
        const i = at % (id.length + 1);
        expect(normalizeAgentId('hermes', id.slice(0, i) + evil + id.slice(i))).toBeNull();
      }),
      { numRuns: 500 },
    );
  });

  it('a path built from a hostile string never escapes its directory', () => {
    fc.assert(
      fc.property(agent, fc.string({ unit: 'grapheme' }), fc.constantFrom('../', '/', '..', '\0', './'), (a, s, evil) => {
        expect(normalizeAgentId(a, `${s}${evil}${s}`)).toBeNull();
      }),
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeAgentId } from '../../src/ids/agent-id.js';
import { AGENT_NAMES } from '../../src/ids/agent-names.js';

const agent = fc.constantFrom(...AGENT_NAMES);
const SAFE_ID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|ses_[0-9a-f]{12}[0-9A-Za-z]{14})$/;

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

  it('a path built from a hostile string never escapes its directory', () => {
    fc.assert(
      fc.property(agent, fc.string({ unit: 'grapheme' }), fc.constantFrom('../', '/', '..', '\0', './'), (a, s, evil) => {
        expect(normalizeAgentId(a, `${s}${evil}${s}`)).toBeNull();
      }),
    );
  });
});

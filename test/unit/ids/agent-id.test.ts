import { describe, expect, it } from 'vitest';
import { InvalidIdError, UnknownAgentError } from '../../../src/errors.js';
import { idSpellings, isPlausibleId, normalizeAgentId, requireAgentId } from '../../../src/ids/agent-id.js';
import { AGENT_NAMES, isAgentName, ownKey, requireAgentName } from '../../../src/ids/agent-names.js';

const V4 = 'a7800001-0000-4000-8000-000000000001';
const V7 = '019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6a7b';
const OPENCODE = 'ses_dd60eb913ffet4MKQWcgE6E3Sy';
const UUID_AGENTS = AGENT_NAMES.filter((a) => a !== 'opencode'); // hermes: uuids among its shapes

describe('agent names', () => {
  it('knows exactly the seven canonical names', () => {
    expect([...AGENT_NAMES].sort()).toEqual(['agy', 'claude', 'codex', 'gemini', 'grok', 'hermes', 'opencode']);
    expect(isAgentName('CLAUDE')).toBe(false);
    expect(isAgentName('claude ')).toBe(false);
    expect(() => requireAgentName('qwen')).toThrow(UnknownAgentError);
  });

  it('maps each agent to its own key', () => {
    expect(AGENT_NAMES.map((a) => ownKey(a))).toEqual([
      'claude_session_id_own',
      'agy_conversation_id_own',
      'codex_session_id_own',
      'grok_session_id_own',
      'hermes_conversation_id_own',
      'opencode_session_id_own',
      'gemini_session_id_own',
    ]);
  });
});

describe('plausible ids', () => {
  it.each(UUID_AGENTS)('%s accepts v4 and v7 uuids and lower-cases them', (agent) => {
    expect(normalizeAgentId(agent, V4)).toBe(V4);
    expect(normalizeAgentId(agent, V7)).toBe(V7);
    expect(normalizeAgentId(agent, V4.toUpperCase())).toBe(V4);
    expect(normalizeAgentId(agent, OPENCODE)).toBeNull();
  });

  it('opencode accepts only its own ses_ shape', () => {
    expect(normalizeAgentId('opencode', OPENCODE)).toBe(OPENCODE);
    expect(normalizeAgentId('opencode', V4)).toBeNull();
    expect(normalizeAgentId('opencode', OPENCODE.toUpperCase())).toBeNull();
    expect(normalizeAgentId('opencode', `${OPENCODE}x`)).toBeNull();
    expect(normalizeAgentId('opencode', 'ses_dd60eb913ffe')).toBeNull();
  });

  const hostile = ['', 'memory', 'notes', '../x', '/etc', '/etc/passwd', `${V4}\0`, `../${V4}`, `${V4}/..`, ` ${V4}`, `${V4}\n`, '.', '..', 'ses_../../x'];
  it.each(hostile)('rejects %j for every agent', (id) => {
    for (const agent of AGENT_NAMES) {
      expect(normalizeAgentId(agent, id)).toBeNull();
      expect(isPlausibleId(agent, id)).toBe(false);
      expect(idSpellings(agent, id)).toEqual([]);
      expect(() => requireAgentId(agent, id)).toThrow(InvalidIdError);
    }
  });

  it('rejects non-strings', () => {
    for (const v of [undefined, null, 42, {}, [V4]]) expect(normalizeAgentId('claude', v)).toBeNull();
  });

  it('hermes accepts its real shapes exactly: stamped (6, 8, 12 hex), cron, and uuids lower-cased', () => {
    for (const id of ['20261201_125014_1bb5bb', '20261201_125014_1bb5bb0a', '20261201_125014_1bb5bb0a1b2c', 'cron_a1b2c3d4e5f6_20261201_125014', 'cron_daily-report_20261201_125014']) {
      expect(normalizeAgentId('hermes', id)).toBe(id);
    }
    expect(normalizeAgentId('hermes', V4.toUpperCase())).toBe(V4);
    expect(idSpellings('hermes', '20261201_125014_1bb5bb')).toEqual(['20261201_125014_1bb5bb']);
    expect(idSpellings('hermes', V4)).toEqual([V4, V4.toUpperCase()]);
    for (const bad of ['20261201_125014_1BB5BB', '20261201_125014_1bb5b', '20261201_125014_1bb5bb0', '2026121_125014_1bb5bb', '20261201_125014_1bb5bb.json', 'cron__20261201_125014', 'cron_../x_20261201_125014', 'cron_job_20261201', `cron_${'a'.repeat(65)}_20261201_125014`, OPENCODE]) {
      expect(normalizeAgentId('hermes', bad), bad).toBeNull();
    }
    // Only hermes knows these shapes.
    expect(normalizeAgentId('claude', '20261201_125014_1bb5bb')).toBeNull();
    expect(normalizeAgentId('opencode', '20261201_125014_1bb5bb')).toBeNull();
  });

  it('searches both spellings of a uuid', () => {
    expect(idSpellings('claude', V4.toUpperCase())).toEqual([V4, V4.toUpperCase()]);
    expect(idSpellings('opencode', OPENCODE)).toEqual([OPENCODE]);
  });
});

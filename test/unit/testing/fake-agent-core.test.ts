import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vm from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { claudeProjectKey } from '../../../src/agents/claude/project-key.js';
import { normalizeAgentId } from '../../../src/ids/agent-id.js';
import { buildFakeAgentCore, fakeAgentCoreSource } from '../../../src/testing/agents/fake-agent-core.js';
import type { FakeAgentRun } from '../../../src/testing/agents/fake-agent-types.js';

const core = buildFakeAgentCore();

function run(over: { env?: Record<string, string>; now?: number } = {}): FakeAgentRun {
  return {
    config: { agent: 'claude', home: '/sb/home', runDir: '/sb/run', sqliteModule: '' },
    mods: {
      fs, path, crypto, database: () => { throw new Error('no db here'); },
      env: over.env ?? {}, now: () => over.now ?? 1_795_999_555_672, pid: 4242, cwd: '/sb/ws',
    },
    args: { version: false, sessionId: null, resume: null, positional: [] },
  };
}

const thrown = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
};

describe('fake agent core: argv', () => {
  it('reads --session-id and every resume spelling, with or without =, and ignores other options', () => {
    expect(core.base.parseArgs('claude', ['--model', 'x', '--session-id', 'A', '--dangerously-skip-permissions'])).toMatchObject({ sessionId: 'A', resume: null });
    for (const flag of ['--resume', '-r', '--session', '--conversation']) expect(core.base.parseArgs('agy', [flag, 'B']).resume).toBe('B');
    expect(core.base.parseArgs('grok', ['--resume=C']).resume).toBe('C');
    expect(core.base.parseArgs('codex', ['resume', 'D']).resume).toBe('D');
    expect(core.base.parseArgs('opencode', ['debug', 'paths']).positional).toEqual(['debug', 'paths']);
    expect(core.base.parseArgs('claude', ['--version']).version).toBe(true);
  });

  it('refuses an id option without its value, with exit 2', () => {
    expect(thrown(() => core.base.parseArgs('claude', ['--session-id']))).toMatchObject({ fakeAgentExit: 2 });
  });

  it('accepts only the agent id shape, uuids lower-cased', () => {
    expect(core.base.checkId('claude', 'A7800001-0000-4000-8000-000000000001')).toBe('a7800001-0000-4000-8000-000000000001');
    expect(core.base.checkId('opencode', 'ses_dd6159fa8ffeNLy5GqcBDiUnlX')).toBe('ses_dd6159fa8ffeNLy5GqcBDiUnlX');
    for (const [agent, bad] of [['claude', '../x'], ['claude', 'ses_dd6159fa8ffeNLy5GqcBDiUnlX'], ['opencode', 'a7800001-0000-4000-8000-000000000001'], ['grok', '']]) {
      expect(thrown(() => core.base.checkId(agent as string, bad as string))).toMatchObject({ fakeAgentExit: 2 });
    }
  });
});

describe('fake agent core: ids', () => {
  it('makes uuid v7 ids that carry their millisecond and pass the codex id rule', () => {
    const id = core.base.uuidV7(run({ now: 0x01a229e1babe }));
    expect(id).toMatch(/^01a229e1-babe-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(normalizeAgentId('codex', id)).toBe(id);
  });

  it('makes OpenCode ids that pass its id rule and sort newest first', () => {
    const older = core.base.opencodeId(run({ now: 1_795_999_555_671 }));
    const newer = core.base.opencodeId(run({ now: 1_795_999_582_707 }));
    // The real CLI named sessions created at these times ses_dd6159fa8ffe… and ses_dd615360cffe….
    expect(older.slice(0, 16)).toBe('ses_dd6159fa8ffe');
    expect(newer.slice(0, 16)).toBe('ses_dd615360cffe');
    expect(newer < older).toBe(true);
    for (const id of [older, newer]) expect(normalizeAgentId('opencode', id)).toBe(id);
  });

  it("computes Claude's project key exactly as the adapter does, long paths included", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 12 }), (parts) => {
        const cwd = `/${parts.join('/')}`;
        expect(core.base.claudeProjectKey(cwd)).toBe(claudeProjectKey(cwd));
      }),
      { numRuns: 300 },
    );
    expect(core.base.claudeProjectKey(`/home/dev/${'very-long-directory-name-0'.repeat(12)}`)).toMatch(/-[0-9a-z]+$/);
  });
});

describe('fake agent core: paths', () => {
  it('honours a location variable inside the sandbox home and refuses one outside it', () => {
    expect(core.base.dirFor(run(), 'CODEX_HOME', '.codex')).toBe('/sb/home/.codex');
    expect(core.base.dirFor(run({ env: { CODEX_HOME: '/sb/home/alt' } }), 'CODEX_HOME', '.codex')).toBe('/sb/home/alt');
    expect(core.base.dirFor(run({ env: { XDG_DATA_HOME: '/sb/home/d' } }), 'XDG_DATA_HOME', '.local/share/opencode', 'opencode')).toBe('/sb/home/d/opencode');
    for (const outside of ['/root/.codex', '/sb/home/../other', '/sb/homex']) {
      const err = thrown(() => core.base.dirFor(run({ env: { CODEX_HOME: outside } }), 'CODEX_HOME', '.codex'));
      expect(err).toMatchObject({ fakeAgentExit: 2 });
      expect((err as { message: string }).message).toContain('outside the sandbox home');
    }
  });
});

describe('fake agent core: embedding', () => {
  it('runs from its own source text alone, with nothing of this module in reach', () => {
    const probe = `${fakeAgentCoreSource()}\n[lib.base.claudeProjectKey('/x/y z'), lib.base.parseArgs('codex', ['resume', 'q']).resume]`;
    expect(vm.runInNewContext(probe, {})).toEqual(['-x-y-z', 'q']);
  });
});

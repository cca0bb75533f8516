import { describe, expect, it } from 'vitest';
import { sandboxEnv } from '../../../src/testing/sandbox/sandbox-env.js';

const at = { home: '/sb/home', binDir: '/sb/bin', tmpDir: '/sb/tmp' };

describe('sandboxEnv', () => {
  it('points HOME, TMPDIR and the front of PATH into the sandbox and keeps the rest of the base', () => {
    const env = sandboxEnv({ HOME: '/root', PATH: '/usr/bin:/sb/bin:/bin', TMPDIR: '/var/tmp', LANG: 'C.UTF-8', MAM_FAKE_GROK_PREFLIGHT_FAIL: '1' }, at);
    expect(env).toEqual({ HOME: '/sb/home', PATH: '/sb/bin:/usr/bin:/bin', TMPDIR: '/sb/tmp', LANG: 'C.UTF-8', MAM_FAKE_GROK_PREFLIGHT_FAIL: '1' });
  });

  it("never carries the caller's agent locations, agent sessions or herdr socket", () => {
    const caller = {
      PATH: '/bin', CLAUDE_CONFIG_DIR: '/root/.claude', CODEX_HOME: '/root/.codex', XDG_DATA_HOME: '/root/.local/share', HERMES_HOME: '/root/.hermes',
      CLAUDE_CODE_SESSION_ID: 'x', CODEX_THREAD_ID: 'y', OPENCODE_SESSION_ID: 'z', HERDR_SOCKET_PATH: '/s.sock', HERDR_SESSION: 'work', HERDR_PANE_ID: 'w1:p1',
      CLAUDECODE: '1', UNDEFINED: undefined,
    };
    expect(Object.keys(sandboxEnv(caller, at)).sort()).toEqual(['HOME', 'PATH', 'TMPDIR']);
  });

  it('has a PATH even when the base has none', () => {
    expect(sandboxEnv({}, at)['PATH']?.startsWith('/sb/bin:')).toBe(true);
  });
});

import { delimiter } from 'node:path';

// Variables that would point an agent, an adapter or herdr outside the sandbox, or make a caller look like an agent session.
const DROPPED = new Set([
  'CLAUDE_CONFIG_DIR', 'CLAUDE_PROJECT_DIR', 'CLAUDE_CODE_TMPDIR', 'CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SESSION_ID',
  'CODEX_HOME', 'CODEX_SQLITE_HOME', 'CODEX_THREAD_ID', 'CODEX_SESSION_ID',
  'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'XDG_CACHE_HOME',
  'HERMES_HOME', 'HERMES_SESSION_ID', 'ANTIGRAVITY_CONVERSATION_ID', 'GROK_SESSION_ID', 'OPENCODE', 'OPENCODE_PID', 'OPENCODE_SESSION_ID',
  'HERDR_SOCKET_PATH', 'HERDR_SESSION', 'HERDR_PANE_ID', 'HERDR_TAB_ID', 'HERDR_WORKSPACE_ID', 'HERDR_ENV', 'HERDR_BIN_PATH',
  'PWD', 'OLDPWD', 'TMPDIR', 'HOME', 'PATH',
]);

/**
 * The sandbox's complete environment from a base one: HOME = the sandbox home, PATH = the bin dir then the base PATH,
 * TMPDIR = the sandbox tmp dir; agent-location, agent-session and herdr-socket variables dropped, so nothing run with it
 * reaches the caller's own agents or herdr (a `MAM_FAKE_<AGENT>_PREFLIGHT_FAIL` of the base is kept: it is the caller's choice).
 * @public
 */
export function sandboxEnv(base: Readonly<Record<string, string | undefined>>, at: { home: string; binDir: string; tmpDir: string }): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) {
    if (v === undefined || DROPPED.has(k)) continue;
    env[k] = v;
  }
  const path = base['PATH'] ?? '/usr/local/bin:/usr/bin:/bin';
  env['PATH'] = [at.binDir, ...path.split(delimiter).filter((d) => d !== '' && d !== at.binDir)].join(delimiter);
  env['HOME'] = at.home;
  env['TMPDIR'] = at.tmpDir;
  return env;
}

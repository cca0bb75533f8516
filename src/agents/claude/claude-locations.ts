import { isAbsolute, join, resolve } from 'node:path';

// Claude Code's own temp root when nothing says otherwise (it appends `claude-<uid>/`); a module constant so tests can see it.
const DEFAULT_TMP = '/tmp';

/**
 * Where Claude Code keeps things for one home and environment: the config root, the transcript stores and the temp roots.
 * @public
 */
export interface ClaudeLocations {
  /** The home whose `.claude.json` is shared by every conversation. */
  home: string;
  /** `CLAUDE_CONFIG_DIR`, else `<home>/.claude`: sessions/, session-env/, telemetry/, jobs/ … live here. */
  config: string;
  /** The transcript store discovery reads: an honoured `CLAUDE_PROJECT_DIR`, else `<config>/projects`. */
  discoverProjects: string;
  /** Every transcript store a purge and a residual scan look at, each once. */
  projects: string[];
  /** `<root>` of `<root>/claude-<uid>/<key>/<id>/`: `CLAUDE_CODE_TMPDIR`, then `TMPDIR` or `/tmp`. */
  tmpRoots: string[];
}

function absolute(value: string | undefined): string | null {
  const v = value?.trim();
  if (v === undefined || v === '' || v.includes('\0') || !isAbsolute(v)) return null;
  return resolve(v);
}

// Claude Code itself exports CLAUDE_PROJECT_DIR=<the workspace> to its hooks and tools (measured on 2.1.197): that value is a
// project, not a transcript store, and scanning it for `<key>/<id>/` would reach into the user's own tree. Only a value set
// outside a Claude session, and not naming the workspace, is taken as the store the reference system meant.
function projectDirOverride(env: Readonly<Record<string, string | undefined>>, workspace: string | undefined): string | null {
  const dir = absolute(env['CLAUDE_PROJECT_DIR']);
  if (dir === null) return null;
  const insideClaude = ['CLAUDECODE', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_CODE_ENTRYPOINT'].some((k) => (env[k] ?? '') !== '');
  if (insideClaude) return null;
  const ws = absolute(workspace);
  return ws !== null && ws === dir ? null : dir;
}

/**
 * Claude Code's locations for `homeDir` under the agent environment `env` (from `agentEnv`, never the caller's own
 * environment for a sandbox home); relative or empty variables are ignored.
 * @public
 */
export function claudeLocations(env: Readonly<Record<string, string | undefined>>, homeDir: string, workspace?: string): ClaudeLocations {
  const home = resolve(homeDir);
  const config = absolute(env['CLAUDE_CONFIG_DIR']) ?? join(home, '.claude');
  const own = join(config, 'projects');
  const override = projectDirOverride(env, workspace);
  const tmpRoots = [absolute(env['CLAUDE_CODE_TMPDIR']), absolute(env['TMPDIR']) ?? DEFAULT_TMP].filter((r): r is string => r !== null);
  return {
    home,
    config,
    discoverProjects: override ?? own,
    projects: [...new Set([...(override === null ? [] : [override]), own])],
    tmpRoots: [...new Set(tmpRoots)],
  };
}

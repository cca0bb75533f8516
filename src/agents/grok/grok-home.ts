import { isAbsolute, join, normalize } from 'node:path';

/**
 * Where grok keeps everything for a home and environment: `root` (`$GROK_HOME` verbatim when set and non-empty, else
 * `<home>/.grok`), or why no root can be used (a `GROK_HOME` that is relative or holds a NUL names no place the library
 * can find as grok would).
 * @public
 */
export type GrokHome = { kind: 'ok'; root: string; sessions: string } | { kind: 'refused'; value: string; reason: string };

/**
 * Grok's home for `homeDir` and the agent environment, as the CLI resolves it (`xai-grok-home`).
 * @example
 * ```ts
 * grokHome({ GROK_HOME: '/srv/grok' }, '/home/me'); // { kind: 'ok', root: '/srv/grok', sessions: '/srv/grok/sessions' }
 * ```
 * @public
 */
export function grokHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): GrokHome {
  const value = env['GROK_HOME'];
  if (value === undefined || value === '') return ok(join(homeDir, '.grok'));
  // Grok takes the value verbatim: a relative one is relative to grok's own cwd, which the library cannot know.
  if (value.includes('\0') || !isAbsolute(value)) return { kind: 'refused', value, reason: 'GROK_HOME is not an absolute path: not searched' };
  return ok(normalize(value));
}

function ok(root: string): GrokHome {
  return { kind: 'ok', root, sessions: join(root, 'sessions') };
}

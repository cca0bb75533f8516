import { isAbsolute, join, normalize } from 'node:path';

/**
 * Where Gemini CLI keeps everything for a home and environment: `root` (`<GEMINI_CLI_HOME>/.gemini` when that variable is
 * set and non-empty — the CLI takes it as its home directory — else `<home>/.gemini`) and its `tmp/` of projects, or why
 * no root can be used (a relative `GEMINI_CLI_HOME`, or one holding a NUL, names no place the library can find as the CLI
 * would).
 * @public
 */
export type GeminiHome = { kind: 'ok'; root: string; tmp: string } | { kind: 'refused'; value: string; reason: string };

/**
 * Gemini CLI's root for `homeDir` and the agent environment (read through the context, never the process's own).
 * @example
 * ```ts
 * geminiHome({ GEMINI_CLI_HOME: '/srv/g' }, '/home/me'); // { kind: 'ok', root: '/srv/g/.gemini', tmp: '/srv/g/.gemini/tmp' }
 * ```
 * @public
 */
export function geminiHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): GeminiHome {
  const value = env['GEMINI_CLI_HOME'];
  if (value === undefined || value === '') return ok(join(homeDir, '.gemini'));
  if (value.includes('\0') || !isAbsolute(value)) return { kind: 'refused', value, reason: 'GEMINI_CLI_HOME is not an absolute path: not searched' };
  return ok(join(normalize(value), '.gemini'));
}

function ok(root: string): GeminiHome {
  return { kind: 'ok', root, tmp: join(root, 'tmp') };
}

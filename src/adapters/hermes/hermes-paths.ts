import { isAbsolute, join, resolve } from 'node:path';

/**
 * Where Hermes keeps its state: the root (`HERMES_HOME`, else `<home>/.hermes`) and the `state.db` every session shares.
 * @public
 */
export interface HermesPaths {
  root: string;
  db: string;
}

/**
 * Hermes's paths for a home and the agent environment (an absolute `HERMES_HOME` moves the root, as the CLI does).
 * @public
 */
export function hermesPaths(homeDir: string, env: Readonly<Record<string, string | undefined>>): HermesPaths {
  const override = env['HERMES_HOME']?.trim() ?? '';
  const root = override !== '' && isAbsolute(override) && !override.includes('\0') ? resolve(override) : join(homeDir, '.hermes');
  return { root, db: join(root, 'state.db') };
}

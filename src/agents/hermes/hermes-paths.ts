import { isAbsolute, join, resolve } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';

/**
 * Where Hermes keeps its state: the root (`HERMES_HOME`, else `<home>/.hermes`) and the `state.db` every session shares.
 * @public
 */
export interface HermesPaths {
  /** The Hermes root (`HERMES_HOME`, else `<home>/.hermes`). */
  root: string;
  /** `<root>/state.db`. */
  db: string;
}

/**
 * One Hermes store searched for a conversation: the active root, or a named profile's `profiles/<name>/` root.
 * @public
 */
export interface HermesStore extends HermesPaths {
  /** `default` for `HERMES_HOME` (else `<home>/.hermes`), the profile's name for `<home>/.hermes/profiles/<name>/`. */
  profile: string;
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

// A profile name Hermes accepts (`hermes -p NAME`): one plain path component.
const PROFILE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/**
 * Every store to search, the active one first: `HERMES_HOME` (else `<home>/.hermes`), `<home>/.hermes` when
 * `HERMES_HOME` moved the root, and each named profile `<home>/.hermes/profiles/<name>/` (a directory, not a link).
 * Never throws: an unreadable `profiles/` adds no profile.
 * @public
 */
export async function hermesStores(fs: FileSystemPort, homeDir: string, env: Readonly<Record<string, string | undefined>>): Promise<HermesStore[]> {
  const active = hermesPaths(homeDir, env);
  const base = join(homeDir, '.hermes');
  const out: HermesStore[] = [{ profile: 'default', ...active }];
  const seen = new Set([active.root]);
  if (!seen.has(base)) {
    seen.add(base);
    out.push({ profile: 'default', root: base, db: join(base, 'state.db') });
  }
  let entries: Array<{ name: string; kind: string }> = [];
  try {
    entries = await fs.readdir(join(base, 'profiles'));
  } catch {
    return out;
  }
  for (const e of [...entries].sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.kind !== 'dir' || !PROFILE.test(e.name) || e.name === '.' || e.name === '..') continue;
    const root = join(base, 'profiles', e.name);
    if (seen.has(root)) {
      const known = out.find((s) => s.root === root);
      if (known !== undefined) known.profile = e.name;
      continue;
    }
    seen.add(root);
    out.push({ profile: e.name, root, db: join(root, 'state.db') });
  }
  return out;
}

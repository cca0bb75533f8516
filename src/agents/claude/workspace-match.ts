import { resolve } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { claudeProjectKey } from './project-key.js';

/**
 * A workspace as Claude Code sees it: the path given, its realpath, the project keys to look under, and a test of a recorded cwd.
 * @public
 */
export interface ClaudeWorkspace {
  /** The workspace as given, made absolute. */
  given: string;
  /** Its realpath (the given path when it cannot be resolved). */
  real: string;
  /** Key dir names under a transcript store: the realpath's key first, then the given path's when it differs. */
  keys: string[];
  /** True when a recorded cwd is this workspace (exactly, up to Unicode normalisation, or by realpath). */
  matches(cwd: string): Promise<boolean>;
}

/**
 * True when two recorded paths are the same text, up to Unicode normalisation (how {@link ClaudeWorkspace.matches} compares
 * before any realpath).
 * @public
 */
export function sameText(a: string, b: string): boolean {
  return a === b || a.normalize('NFC') === b.normalize('NFC');
}

/**
 * Resolves `workspace` once, so every transcript is compared with the same realpath (Claude records `realpath(cwd)`: a session
 * started in a linked dir is recorded under its target).
 * @public
 */
export async function claudeWorkspace(fs: FileSystemPort, workspace: string): Promise<ClaudeWorkspace> {
  const given = resolve(workspace);
  const real = await fs.realpath(given).catch(() => given);
  const keys = [...new Set([claudeProjectKey(real), claudeProjectKey(given)])];
  const resolved = new Map<string, Promise<boolean>>();
  const matches = (cwd: string): Promise<boolean> => {
    if (sameText(cwd, real) || sameText(cwd, given)) return Promise.resolve(true);
    // The key is lossy (`/a/b-c` and `/a/b/c` share one): a different text proves nothing until its realpath is compared.
    let hit = resolved.get(cwd);
    if (hit === undefined) {
      hit = fs.realpath(cwd).then(
        (r) => sameText(r, real),
        () => false,
      );
      resolved.set(cwd, hit);
    }
    return hit;
  };
  return { given, real, keys, matches };
}

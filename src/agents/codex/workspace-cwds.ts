import type { FileSystemPort } from '../../ports/fs.js';

/**
 * The workspace spellings a recorded cwd is compared with: the path as given (without a trailing slash) and its realpath.
 * @public
 */
export async function workspaceCwds(fs: FileSystemPort, workspace: string): Promise<Set<string>> {
  const given = workspace.length > 1 ? workspace.replace(/\/+$/, '') : workspace;
  const real = await fs.realpath(workspace).catch(() => null);
  return new Set(real === null ? [given] : [given, real]);
}

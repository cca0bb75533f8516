import { delimiter, isAbsolute, join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';

async function isExecutableFile(fs: FileSystemPort, path: string): Promise<boolean> {
  try {
    const st = await fs.stat(path);
    return st.kind === 'file' && (st.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

/**
 * The `opencode` executable a session here would run: the first on `pathVar` (absolute entries only), else
 * `<home>/.opencode/bin/opencode`; only an executable regular file (a link to one counts) — else null.
 * @public
 */
export async function findOpencodeBinary(fs: FileSystemPort, pathVar: string | undefined, home: string): Promise<string | null> {
  const dirs = (pathVar ?? '').split(delimiter).filter((d) => d !== '' && isAbsolute(d) && !d.includes('\0'));
  const candidates = [...new Set(dirs.map((d) => join(d, 'opencode')))];
  if (isAbsolute(home) && !home.includes('\0')) candidates.push(join(home, '.opencode', 'bin', 'opencode'));
  const ok = await Promise.all(candidates.map((c) => isExecutableFile(fs, c)));
  const at = ok.indexOf(true);
  return at < 0 ? null : (candidates[at] as string);
}

import { isAbsolute } from 'node:path';

// ANSI colour / cursor sequences a CLI may print even when not on a terminal.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * The `db` path printed by `opencode debug paths` (one `<key> <value>` line per path), or null when there is no such line
 * or its value is not an absolute path.
 * @public
 */
export function parseDebugPathsDb(stdout: string): string | null {
  for (const raw of stdout.replace(ANSI, '').split(/\r?\n/)) {
    const m = /^\s*db\s*[:=]?\s+(\S.*?)\s*$/.exec(raw);
    if (m === null) continue;
    const value = m[1] as string;
    return isAbsolute(value) && !value.includes('\0') ? value : null;
  }
  return null;
}

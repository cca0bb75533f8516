// Claude Code 2.1 derives a project dir name from the cwd: every char outside [A-Za-z0-9] becomes '-', and a key over
// 200 chars keeps its first 200 chars + '-' + base-36 of |djb2(cwd)| (h = ((h << 5) - h + c) | 0, over UTF-16 code units).
const MAX_KEY = 200;

function djb2(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = ((h << 5) - h + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * Claude Code's project key of a (realpath'd) cwd, e.g. `/home/dev/ws-claude` → `-home-dev-ws-claude`. Lossy: verify a
 * transcript against its records' `cwd`.
 * @public
 */
export function claudeProjectKey(cwd: string): string {
  const key = cwd.replace(/[^A-Za-z0-9]/g, '-');
  if (key.length <= MAX_KEY) return key;
  return `${key.slice(0, MAX_KEY)}-${Math.abs(djb2(cwd)).toString(36)}`;
}

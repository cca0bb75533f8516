import { isAbsolute, normalize, sep } from 'node:path';

function trimSep(p: string): string {
  return p.length > 1 && p.endsWith(sep) ? p.slice(0, -1) : p;
}

/**
 * True when absolute path `p` is `root` itself or lies below it, comparing normalized paths only (no filesystem access).
 * @public
 */
export function isInside(root: string, p: string): boolean {
  if (!isAbsolute(root) || !isAbsolute(p) || root.includes('\0') || p.includes('\0')) return false;
  const r = trimSep(normalize(root));
  const c = trimSep(normalize(p));
  if (c === r) return true;
  return c.startsWith(r.endsWith(sep) ? r : r + sep);
}

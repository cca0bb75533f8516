import { isAbsolute } from 'node:path';

// An object the schema reads as its own fields only: a plain prototype, no symbol keys.
function plainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && Object.getOwnPropertySymbols(v).length === 0;
}

function absolute(p: unknown): boolean {
  return typeof p === 'string' && p.length > 0 && !p.includes('\0') && isAbsolute(p);
}

/**
 * The common well-formed `verifyMany` query list checked by hand, without zod: an array (every slot filled) of plain
 * objects whose `id` is a string and whose `workspace`, when set, is an absolute, non-empty, NUL-free path. Anything else
 * — every bad value included — goes to the schema, which accepts it or names the fault; this never accepts what the schema refuses.
 */
export function plainlyValidQueries(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  for (let i = 0; i < v.length; i += 1) {
    if (!(i in v)) return false;
    const q: unknown = v[i];
    if (!plainObject(q) || typeof q['id'] !== 'string') return false;
    const w = q['workspace'];
    if (w !== undefined && !absolute(w)) return false;
  }
  return true;
}

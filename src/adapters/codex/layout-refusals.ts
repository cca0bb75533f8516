import type { DbInspection } from './inspect-db.js';

/**
 * Why a purge must not run on this home, one line per state database whose layout is not the known one (or that
 * cannot be read): `<db> (unknown layout: refusing to purge)`.
 * @public
 */
export function refusals(inspections: readonly DbInspection[]): string[] {
  const out: string[] = [];
  for (const i of inspections) {
    if (!i.db.state) continue;
    if (!i.ok) out.push(`${i.db.path} (unreadable: refusing to purge)`);
    else if (i.layout?.kind === 'unknown') out.push(`${i.db.path} (unknown layout: refusing to purge)`);
  }
  return out;
}

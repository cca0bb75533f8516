import type { LeftArtifact } from '../../purge/artifact.js';
import type { DbInspection } from './inspect-db.js';

/**
 * Why a purge must not run on this home, one line per state database whose layout is not the known one (or that
 * cannot be read): `<db> (unknown layout: refusing to purge)`.
 * @public
 */
export function refusals(inspections: readonly DbInspection[]): LeftArtifact[] {
  const out: LeftArtifact[] = [];
  for (const i of inspections) {
    if (!i.db.state) continue;
    if (!i.ok) out.push({ kind: 'file', path: i.db.path, reason: `unreadable (${i.reason}): refusing to purge` });
    else if (i.layout?.kind === 'unknown') out.push({ kind: 'file', path: i.db.path, reason: 'unknown layout: refusing to purge' });
  }
  return out;
}

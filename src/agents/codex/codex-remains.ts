import type { FileSystemPort } from '../../ports/fs.js';
import type { RemainsBelonging } from '../types.js';
import { presentArtifacts } from '../common/artifacts.js';
import { codexArtifacts } from './codex-artifacts.js';
import type { CodexHome } from './codex-home.js';
import { readIds } from './codex-verify-many.js';
import { withStateDbs } from './state-cache.js';
import { workspaceCwds } from './workspace-cwds.js';

/**
 * Where what is left of a thread belongs when its rollout is gone (a purge stopped part-way after removing it; the
 * `threads` row, which a purge deletes last, still records the cwd): `here` when every row of it records the workspace,
 * `elsewhere` when one records another, `unrecorded` when no row is left. Null while a rollout of it is still there (the
 * thread is whole: its verification answers), when a state DB cannot be read, or for a sub-agent thread (never a
 * conversation of its own). Never throws.
 * @public
 */
export async function codexRemainsBelonging(fs: FileSystemPort, home: CodexHome, id: string, workspace: string): Promise<RemainsBelonging | null> {
  try {
    const reads = await withStateDbs(fs, home, undefined, (dbs, dirLook) => Promise.all(dbs.map((d) => readIds(fs, d, [id], undefined, dirLook))));
    const states = reads.map((r) => r[0]);
    if (states.some((s) => s === undefined || !s.ok || s.child)) return null;
    const rows = states.flatMap((s) => s?.rows ?? []);
    const files = await codexArtifacts(fs, home, id, rows.map((r) => r.rolloutPath));
    if (files.unreadable.length > 0 || (await presentArtifacts(fs, files.rollouts)).length > 0) return null;
    if (rows.length === 0) return 'unrecorded';
    const cwds = await workspaceCwds(fs, workspace);
    return rows.every((r) => cwds.has(r.cwd)) ? 'here' : 'elsewhere';
  } catch {
    return null;
  }
}

import type { FileSystemPort } from '../../ports/fs.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { inspectDb } from './inspect-db.js';
import { checkRollout } from './rollout-check.js';
import { scanRollouts } from './rollout-scan.js';
import { staleRecordedPath } from './moved-home.js';
import { subagentsAmong } from './codex-subagents.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';

/**
 * Whether the canonical id has a conversation of the workspace on disk. The state DBs speak first: a `threads` row of
 * another cwd rules it out, one of this cwd needs its rollout. Without a row, a rollout found by name must name the id and
 * the workspace in its first line — in `strict` (discover) mode only when no state DB is trusted to list every thread. A
 * row's stale path (a moved home) is replaced by the id's rollout under the home; a sub-agent thread never verifies.
 * @public
 */
export async function verifyThread(fs: FileSystemPort, home: CodexHome, cwds: ReadonlySet<string>, id: string, strict: boolean): Promise<boolean> {
  const states = await Promise.all((await codexDbs(fs, home)).filter((d) => d.state).map((d) => inspectDb(fs, d, id)));
  const rows = states.flatMap((s) => (s.ok ? s.rows : []));
  const trusted = states.length > 0 && states.every((s) => s.ok && s.layout?.kind === 'known' && s.layout.complete);
  if (rows.length > 0) {
    // A sub-agent thread is part of its parent's conversation, never one of its own (its row says so even when its rollout is gone).
    for (const st of states.filter((x) => x.ok)) {
      const child = await withReadonlyDb(st.db.path, { fs }, ({ db }) => subagentsAmong(db, [id, id.toUpperCase()]).size > 0).catch(() => false);
      if (child) return false;
    }
    const mine = rows.filter((r) => cwds.has(r.cwd));
    if (mine.length === 0) return false;
    for (const r of mine) {
      if ((await checkRollout(fs, r.rolloutPath, id, cwds, true)) !== null) return true;
      // A moved home: the row's path is stale, the rollout of the id is under this home.
      if (!(await staleRecordedPath(fs, home, r.rolloutPath))) continue;
      for (const f of (await scanRollouts(fs, home, id)).files) if ((await checkRollout(fs, f.path, id, cwds, true)) !== null) return true;
    }
    if (strict) return false;
  } else if (strict && trusted) {
    return false;
  }
  for (const f of (await scanRollouts(fs, home, id)).files) {
    if ((await checkRollout(fs, f.path, id, cwds, rows.length > 0)) !== null) return true;
  }
  return false;
}

import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import type { CodexDb } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { checkRollout } from './rollout-check.js';
import { scanRollouts } from './rollout-scan.js';
import { rowRolloutMtime } from './row-rollout.js';
import { stateProbe } from './state-schema.js';
import { rememberedProbe, type StateClock, withStateDbs } from './state-cache.js';
import { threadsById, type ThreadRow } from './thread-query.js';

// What one read-only look at a state DB says of one id: its rows, whether its own row marks it a sub-agent, and whether
// the DB is trusted to list every thread (known layout, completed backfill); `ok` false when it could not be read.
interface IdRead {
  ok: boolean;
  trusted: boolean;
  rows: ThreadRow[];
  child: boolean;
}

async function readId(fs: FileSystemPort, db: CodexDb, id: string, now: StateClock | undefined): Promise<IdRead> {
  try {
    return await withReadonlyDb(db.path, { fs, requireFile: true }, (h) => {
      const conn = h.db;
      const { schema, layout } = rememberedProbe(fs, db.path, h, now, () => stateProbe(conn));
      if (layout.kind !== 'known') return { ok: true, trusted: false, rows: [], child: false };
      const rows = threadsById(conn, layout, id, schema.source);
      const child = rows.some((r) => r.subagent === true);
      return { ok: true, trusted: layout.complete, rows, child };
    });
  } catch {
    return { ok: false, trusted: false, rows: [], child: false };
  }
}

/**
 * Whether the canonical id has a conversation of the workspace on disk. The state DBs speak first (one read-only open
 * each, the lookup by the primary key): a `threads` row of another cwd rules it out, one of this cwd is answered by one
 * `lstat` of its rollout (its head read only where the DB cannot answer, see {@link rowRolloutMtime}). Without a row, a
 * rollout found by name must name the id and the workspace in its first line — in `strict` (discover) mode only when no
 * state DB is trusted to list every thread. A row's stale path (a moved home) is replaced by the id's rollout under the
 * home; a sub-agent thread never verifies. `cwdSet` (the workspace as given and its realpath) may still be on its way.
 * With `now` (the ports' clock), the listing and schema facts are remembered as in {@link discoverThreads}.
 * @public
 */
export async function verifyThread(
  fs: FileSystemPort,
  home: CodexHome,
  cwdSet: ReadonlySet<string> | PromiseLike<ReadonlySet<string>>,
  id: string,
  strict: boolean,
  now?: StateClock,
): Promise<boolean> {
  // The workspace's realpath resolves while the home is listed (or its listing checked) and the state DBs are read.
  const [dbs, cwds] = await Promise.all([withStateDbs(fs, home, now, (all) => Promise.all(all.map((d) => readId(fs, d, id, now)))), cwdSet]);
  const states = dbs;
  const rows = states.flatMap((s) => s.rows);
  const trusted = states.length > 0 && states.every((s) => s.ok && s.trusted);
  let listed: Promise<string[]> | undefined;
  const byName = (): Promise<string[]> => (listed ??= scanRollouts(fs, home, id).then((s) => s.files.map((f) => f.path), () => []));
  if (rows.length > 0) {
    // A sub-agent thread is part of its parent's conversation, never one of its own (its row says so even when its rollout is gone).
    if (states.some((s) => s.child)) return false;
    const mine = rows.filter((r) => cwds.has(r.cwd));
    if (mine.length === 0) return false;
    for (const r of mine) if ((await rowRolloutMtime(fs, home, { ...r, id }, cwds, byName)) !== null) return true;
    if (strict) return false;
  } else if (strict && trusted) {
    return false;
  }
  for (const path of await byName()) {
    if ((await checkRollout(fs, path, id, cwds, rows.length > 0)) !== null) return true;
  }
  return false;
}

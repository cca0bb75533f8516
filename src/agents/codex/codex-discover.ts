import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { canonicalCodexId } from './codex-ids.js';
import type { CodexHome } from './codex-home.js';
import { mapLimit } from '../../map-limit.js';
import { checkRollout } from './rollout-check.js';
import { lstatRowRollout, type RowRollout, rowRolloutMtime } from './row-rollout.js';
import { scanRollouts } from './rollout-scan.js';
import { stateProbe } from './state-schema.js';
import { rememberedProbe } from '../../sqlite/remembered-probe.js';
import { type StateClock, withStateDbs } from './state-cache.js';
import { threadsByCwd, type ThreadRow } from './thread-query.js';
import { rolloutsById } from './moved-home.js';

/**
 * A conversation of the workspace found on disk, and when it was last active (epoch ms).
 * @public
 */
export interface Discovered {
  id: string;
  activityMs: number;
}

// Rollout heads read at once: each read holds up to 64 KiB (1 MiB for an overlong line), so memory stays flat however many rollouts there are.
const READS_IN_FLIGHT = 16;
// lstats at once: each holds nothing but its answer, so a workspace's rollouts are looked at all together (the thread
// pool then never waits for the next request: a few hundred at once cost half as much as a window of 128); the bound
// only keeps a huge workspace's pending requests from growing without limit.
const LSTATS_IN_FLIGHT = 1024;

interface StateRead {
  rows: ThreadRow[];
  /** Sub-agent threads among the rows (never a conversation of their own). */
  children: Set<string>;
  /** Every state DB had the known layout and a completed backfill: a thread it lacks has no rollout worth scanning for. */
  authoritative: boolean;
  /** Some state DB was read. */
  any: boolean;
}

async function readStates(fs: FileSystemPort, home: CodexHome, cwdSet: ReadonlySet<string> | PromiseLike<ReadonlySet<string>>, now?: StateClock): Promise<StateRead> {
  // The home's state DBs (remembered, or listed) and the workspace's spellings are looked up at once.
  return withStateDbs(fs, home, now, async (dbs, dirLook) => {
    const out: StateRead = { rows: [], children: new Set(), authoritative: true, any: false };
    const spellings = Promise.resolve(cwdSet).then((set) => [...set]);
    spellings.catch(() => undefined);
    let cwds: string[] | undefined;
    for (const db of dbs) {
      try {
        // The first database is looked at and opened while the workspace's realpath is on its way.
        await withReadonlyDb(db.path, { fs, requireFile: true, dirLook: dirLook(db.root) }, async (h) => {
          cwds ??= await spellings;
          const conn = h.db;
          const { schema, layout } = rememberedProbe(fs, db.path, h, now, () => stateProbe(conn));
          if (layout.kind !== 'known') {
            out.authoritative = false;
            return;
          }
          out.any = true;
          if (!layout.complete) out.authoritative = false;
          // One statement: the rows of the workspace with their `source` (a sub-agent's own row says so).
          for (const r of threadsByCwd(conn, layout, cwds, schema.cwdIndex, schema.source)) {
            if (r.subagent === true) out.children.add(r.id.toLowerCase());
            else out.rows.push(r);
          }
        });
      } catch {
        out.authoritative = false;
      }
    }
    // A workspace whose spellings could not be had fails the call, as before any database was read.
    await spellings;
    if (!out.any) out.authoritative = false;
    return out;
  });
}

function newestFirst(a: Discovered, b: Discovered): number {
  return b.activityMs - a.activityMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/**
 * The conversations of a workspace: the state DBs' `threads` rows of its cwd first (one indexed query each), each
 * answered by one `lstat` of its rollout (a head is read only where the DB cannot answer: a recorded path outside the
 * home, a link, a missing file); a scan of the rollouts by name only when no state DB can be trusted to list them
 * all (none, an unknown layout, an unfinished backfill). Sub-agent threads are left out (a spawned child belongs to its
 * parent's conversation); an archived thread is still a conversation of its workspace (it can be resumed, and a purge must
 * find it). A row whose recorded rollout is missing or outside the home (a moved `CODEX_HOME`) is proven by the rollout of
 * its id found under the home. Newest first; `sinceMs` keeps those active at or after it.
 * `cwdSet` holds the workspace as given and its realpath: the indexed equality query asks for both (`cwd IN (…)`), so a
 * thread recorded under either spelling is found without comparing realpaths row by row. It may still be on its way (a
 * realpath): the home is listed meanwhile. With `now` (the ports' clock), the home's listing and each state DB's schema
 * facts are remembered for the life of `fs` while their `lstat`s stay the same (see {@link withStateDbs}).
 * @public
 */
export async function discoverThreads(
  fs: FileSystemPort,
  home: CodexHome,
  cwdSet: ReadonlySet<string> | PromiseLike<ReadonlySet<string>>,
  sinceMs?: number,
  now?: StateClock,
): Promise<Discovered[]> {
  const state = await readStates(fs, home, cwdSet, now);
  const cwds = await cwdSet;
  const byId = new Map<string, ThreadRow>();
  for (const row of state.rows) {
    const id = canonicalCodexId(row.id);
    if (id === null) continue;
    const seen = byId.get(id);
    if (seen === undefined || row.activityMs > seen.activityMs) byId.set(id, id === row.id ? row : { ...row, id });
  }
  for (const c of state.children) byId.delete(c);
  // One lstat per row where the DB answers; a head is read only where it cannot (see rowRolloutMtime). A moved or copied
  // home's rows are proven by the rollout of their id under the home (one listing of the rollout roots, made only when needed).
  let inHome: Promise<Map<string, string[]>> | undefined;
  const byName = (id: string) => async (): Promise<string[]> => (await (inHome ??= rolloutsById(fs, home))).get(id) ?? [];
  // The lstats (no read, nothing held) run LSTATS_IN_FLIGHT at once; the rows the DB cannot answer read heads 16 at once.
  const rows = [...byId.values()];
  const quick = await mapLimit(rows, LSTATS_IN_FLIGHT, (row) => lstatRowRollout(fs, home, row));
  // The rows one lstat answered are taken at once; only the others go through the head reads.
  const found: Discovered[] = [];
  const ask: Array<{ row: ThreadRow; q: RowRollout }> = [];
  rows.forEach((row, i) => {
    const q = quick[i];
    if (q === null || q === undefined) return;
    if (q.kind === 'file') found.push({ id: row.id, activityMs: row.activityMs || q.mtimeMs });
    else ask.push({ row, q });
  });
  const fromHeads = await mapLimit(ask, READS_IN_FLIGHT, async ({ row, q }) => {
    const mtime = await rowRolloutMtime(fs, home, row, cwds, byName(row.id), q);
    return mtime === null ? null : { id: row.id, activityMs: row.activityMs || mtime };
  });
  for (const d of fromHeads) if (d !== null) found.push(d);
  if (!state.authoritative) {
    const known = new Set([...found.map((d) => d.id), ...state.children]);
    const files = (await scanRollouts(fs, home)).files.filter((f) => !known.has(f.id));
    const scanned = await mapLimit(files, READS_IN_FLIGHT, async (f) => {
      const mtime = await checkRollout(fs, f.path, f.id, cwds, false);
      return mtime === null ? null : { id: f.id, activityMs: mtime };
    });
    for (const d of scanned) if (d !== null && !known.has(d.id)) (known.add(d.id), found.push(d));
  }
  return found.filter((d) => sinceMs === undefined || d.activityMs >= sinceMs).sort(newestFirst);
}

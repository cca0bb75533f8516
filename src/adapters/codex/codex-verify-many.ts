import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { checkRollout } from './rollout-check.js';
import { scanRollouts } from './rollout-scan.js';
import { rowRolloutMtime } from './row-rollout.js';
import { withBackfill } from './state-layout.js';
import { stateSchema } from './state-schema.js';
import { threadsById, type ThreadRow } from './thread-query.js';
import { workspaceCwds } from './workspace-cwds.js';

/**
 * One canonical id of a batch and the workspace spellings it is checked against ({@link verifyThreads}).
 * @public
 */
export interface ThreadQuery {
  /** The canonical thread id. */
  id: string;
  /** The workspace as given and its realpath. */
  cwds: ReadonlySet<string>;
}

// What one state DB says of one id, as `verifyThread` reads it: `ok` false when the read failed.
interface IdRead {
  ok: boolean;
  trusted: boolean;
  rows: ThreadRow[];
  child: boolean;
}

const FAILED: IdRead = { ok: false, trusted: false, rows: [], child: false };

// One open of a state DB and one schema and layout probe for every id of the batch; then the lookup by the primary key per id.
async function readIds(fs: FileSystemPort, path: string, ids: readonly string[]): Promise<IdRead[]> {
  try {
    return await withReadonlyDb(path, { fs }, ({ db: conn }) => {
      const schema = stateSchema(conn);
      const layout = withBackfill(conn, schema.layout);
      if (layout.kind !== 'known') return ids.map(() => ({ ok: true, trusted: false, rows: [], child: false }));
      return ids.map((id): IdRead => {
        try {
          const rows = threadsById(conn, layout, id, schema.source);
          return { ok: true, trusted: layout.complete, rows, child: rows.some((r) => r.subagent === true) };
        } catch {
          return FAILED;
        }
      });
    });
  } catch {
    return ids.map(() => FAILED);
  }
}

// The `verify`-mode answer of `verifyThread` for one id from what the state DBs said of it.
async function verifyOne(fs: FileSystemPort, home: CodexHome, q: ThreadQuery, states: readonly IdRead[]): Promise<boolean> {
  const rows = states.flatMap((s) => s.rows);
  let listed: Promise<string[]> | undefined;
  const byName = (): Promise<string[]> => (listed ??= scanRollouts(fs, home, q.id).then((s) => s.files.map((f) => f.path), () => []));
  if (rows.length > 0) {
    if (states.some((s) => s.child)) return false;
    const mine = rows.filter((r) => q.cwds.has(r.cwd));
    if (mine.length === 0) return false;
    for (const r of mine) if ((await rowRolloutMtime(fs, home, { ...r, id: q.id }, q.cwds, byName)) !== null) return true;
  }
  for (const path of await byName()) {
    if ((await checkRollout(fs, path, q.id, q.cwds, rows.length > 0)) !== null) return true;
  }
  return false;
}

/**
 * `verifyThread` in `verify` mode for many ids, in order, answering exactly as it does per id: the home's databases are
 * listed once, each state DB is opened once with its schema and layout probed once, then one lookup by the primary key
 * per id on the open connection and one `lstat` per row of the workspace (a rollout head read only where the DB cannot
 * answer). Never throws: an id whose check fails is false.
 * @public
 */
export async function verifyThreads(fs: FileSystemPort, home: CodexHome, queries: readonly ThreadQuery[]): Promise<boolean[]> {
  if (queries.length === 0) return [];
  const ids = queries.map((q) => q.id);
  let dbs;
  try {
    dbs = (await codexDbs(fs, home)).filter((d) => d.state);
  } catch {
    return queries.map(() => false);
  }
  const perDb = await Promise.all(dbs.map((d) => readIds(fs, d.path, ids)));
  return Promise.all(queries.map((q, i) => verifyOne(fs, home, q, perDb.map((reads) => reads[i] ?? FAILED)).catch(() => false)));
}

/**
 * The Codex adapter's `verifyMany`: each query's id made canonical (a non-id is false) and its workspace's spellings
 * resolved once per distinct workspace, then {@link verifyThreads} for the rest. Never throws.
 * @public
 */
export async function codexVerifyMany(
  fs: FileSystemPort,
  home: () => Promise<CodexHome>,
  queries: readonly { id: string; workspace?: string }[],
  workspace: string,
  canonical: (id: string) => string | null,
): Promise<boolean[]> {
  const out = queries.map(() => false);
  const cwdsOf = new Map<string, Promise<Set<string> | null>>();
  const batch: ThreadQuery[] = [];
  const at: number[] = [];
  await Promise.all(
    queries.map(async (q, i) => {
      const c = canonical(q.id);
      if (c === null) return;
      const w = q.workspace ?? workspace;
      let p = cwdsOf.get(w);
      if (p === undefined) cwdsOf.set(w, (p = workspaceCwds(fs, w).catch(() => null)));
      const cwds = await p;
      if (cwds === null) return;
      batch.push({ id: c, cwds });
      at.push(i);
    }),
  );
  let answers: boolean[];
  try {
    answers = await verifyThreads(fs, await home(), batch);
  } catch {
    return out;
  }
  at.forEach((i, k) => (out[i] = answers[k] === true));
  return out;
}

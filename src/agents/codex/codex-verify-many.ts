import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import type { CodexDb } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { checkRollout } from './rollout-check.js';
import { scanRollouts } from './rollout-scan.js';
import { lstatRowRollout, rowRolloutMtime } from './row-rollout.js';
import { stateProbe } from './state-schema.js';
import { rememberedProbe } from '../../sqlite/remembered-probe.js';
import { type DbDirLook, type StateClock, withStateDbs } from './state-cache.js';
import { threadsByIds, type ThreadRow } from './thread-query.js';
import { workspaceCwds } from './workspace-cwds.js';

/**
 * One canonical id of a batch and the workspace spellings it is checked against ({@link verifyThreads}).
 * @public
 */
export interface ThreadQuery {
  /** The canonical thread id. */
  id: string;
  /** The workspace as given and its realpath (it may still be on its way: the state DBs are read meanwhile). */
  cwds: ReadonlySet<string> | PromiseLike<ReadonlySet<string>>;
  /**
   * The workspace as given (no trailing slash), when known: a row recording exactly it whose rollout one `lstat` proves
   * answers before `cwds` is awaited, so a lazy `cwds` is never resolved for it.
   */
  given?: string | undefined;
}

/**
 * How {@link verifyThreads} answers: `strict` (discover mode) trusts a state DB that lists every thread to rule out an
 * id it lacks, and a row of the workspace whose rollout is gone; `now` (the ports' clock) lets the home's listing and
 * each state DB's schema facts be remembered under their `lstat`s (see {@link withStateDbs}).
 * @public
 */
export interface VerifyThreadsOptions {
  /** Discover mode: stricter, as above. */
  strict?: boolean | undefined;
  /** The ports' clock; without it nothing is remembered. */
  now?: StateClock | undefined;
}

// What one state DB says of one id: its rows, whether its own row marks it a sub-agent, and whether the DB is trusted to
// list every thread (known layout, completed backfill); `ok` false when the read failed.
export interface IdRead {
  ok: boolean;
  trusted: boolean;
  rows: ThreadRow[];
  child: boolean;
}

const FAILED: IdRead = { ok: false, trusted: false, rows: [], child: false };

// One open of a state DB (a regular file, checked by the opener) and one schema and layout probe (remembered under the
// file's lstats) for every id of the batch; then one lookup by the primary key for all of them.
export async function readIds(fs: FileSystemPort, db: CodexDb, ids: readonly string[], now: StateClock | undefined, dirLook: DbDirLook): Promise<IdRead[]> {
  try {
    return await withReadonlyDb(db.path, { fs, requireFile: true, dirLook: dirLook(db.root) }, (h) => {
      const conn = h.db;
      const { schema, layout } = rememberedProbe(fs, db.path, h, now, () => stateProbe(conn));
      if (layout.kind !== 'known') return ids.map(() => ({ ok: true, trusted: false, rows: [], child: false }));
      let all: ThreadRow[][];
      try {
        all = threadsByIds(conn, layout, ids, schema.source);
      } catch {
        return ids.map(() => FAILED);
      }
      return all.map((rows): IdRead => ({ ok: true, trusted: layout.complete, rows, child: rows.some((r) => r.subagent === true) }));
    });
  } catch {
    return ids.map(() => FAILED);
  }
}

// The one rule of a thread's verification, from what the state DBs said of its id. The state DBs speak first: a
// `threads` row of another cwd rules it out, one of this cwd is answered by one `lstat` of its rollout (its head read
// only where the DB cannot answer, see rowRolloutMtime). Without a row, a rollout found by name must name the id and the
// workspace in its first line — in strict mode only when no state DB is trusted to list every thread. A sub-agent
// thread never verifies.
async function verifyOne(fs: FileSystemPort, home: CodexHome, q: ThreadQuery, states: readonly IdRead[], strict: boolean): Promise<boolean> {
  const rows = states.flatMap((s) => s.rows);
  const trusted = states.length > 0 && states.every((s) => s.ok && s.trusted);
  let listed: Promise<string[]> | undefined;
  const byName = (): Promise<string[]> => (listed ??= scanRollouts(fs, home, q.id).then((s) => s.files.map((f) => f.path), () => []));
  if (rows.length > 0) {
    // A sub-agent thread is part of its parent's conversation, never one of its own (its row says so even when its rollout is gone).
    if (states.some((s) => s.child)) return false;
    // A row recording the workspace as given, its rollout proven by one lstat: the answer, the workspace unresolved.
    const asGiven = rows.filter((r) => r.cwd === q.given);
    const looks = await Promise.all(asGiven.map((r) => lstatRowRollout(fs, home, { ...r, id: q.id })));
    if (looks.some((l) => l?.kind === 'file')) return true;
    const cwds = await q.cwds;
    const mine = rows.filter((r) => cwds.has(r.cwd));
    if (mine.length === 0) return false;
    for (const r of mine) {
      const at = asGiven.indexOf(r);
      if ((await rowRolloutMtime(fs, home, { ...r, id: q.id }, cwds, byName, at < 0 ? undefined : looks[at])) !== null) return true;
    }
    if (strict) return false;
  } else if (strict && trusted) {
    return false;
  }
  const spellings = await q.cwds;
  for (const path of await byName()) {
    if ((await checkRollout(fs, path, q.id, spellings, rows.length > 0)) !== null) return true;
  }
  return false;
}

/**
 * Whether each canonical id has a conversation of its workspace on disk, in order — the one rule set of Codex
 * verification (`verifyArtifact` is a batch of one): the home's databases are listed once (remembered with `now`), each
 * state DB is opened once with its schema and layout probed once, then one lookup by the primary key per id on the open
 * connection and one `lstat` per row of the workspace (a rollout head read only where the DB cannot answer; a row's stale
 * path, a moved home, is replaced by the id's rollout under the home). Never throws: an id whose check fails is false.
 * @public
 */
export async function verifyThreads(fs: FileSystemPort, home: CodexHome, queries: readonly ThreadQuery[], opts: VerifyThreadsOptions = {}): Promise<boolean[]> {
  if (queries.length === 0) return [];
  const ids = queries.map((q) => q.id);
  const strict = opts.strict === true;
  let perDb: IdRead[][];
  try {
    perDb = await withStateDbs(fs, home, opts.now, (dbs, dirLook) => Promise.all(dbs.map((d) => readIds(fs, d, ids, opts.now, dirLook))));
  } catch {
    return queries.map(() => false);
  }
  return Promise.all(queries.map((q, i) => verifyOne(fs, home, q, perDb.map((reads) => reads[i] ?? FAILED), strict).catch(() => false)));
}

// A promise started at its first `then`, once.
function lazily<T>(start: () => Promise<T>): PromiseLike<T> {
  let p: Promise<T> | undefined;
  return { then: (ok, no) => (p ??= start()).then(ok, no) };
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
  now?: StateClock,
): Promise<boolean[]> {
  const out = queries.map(() => false);
  // Each distinct workspace is resolved once, and only for an id no row of it as given answers (a workspace that cannot
  // be resolved is compared as given; workspaceCwds never rejects).
  const cwdsOf = new Map<string, PromiseLike<Set<string>>>();
  const batch: ThreadQuery[] = [];
  const at: number[] = [];
  queries.forEach((q, i) => {
    const c = canonical(q.id);
    if (c === null) return;
    const w = q.workspace ?? workspace;
    let cwds = cwdsOf.get(w);
    if (cwds === undefined) cwdsOf.set(w, (cwds = lazily(() => workspaceCwds(fs, w))));
    batch.push({ id: c, cwds, given: w.length > 1 ? w.replace(/\/+$/, '') : w });
    at.push(i);
  });
  let answers: boolean[];
  try {
    answers = await verifyThreads(fs, await home(), batch, { now });
  } catch {
    return out;
  }
  at.forEach((i, k) => (out[i] = answers[k] === true));
  return out;
}

import type Database from 'better-sqlite3';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { inReadScope } from '../../sqlite/read-scope.js';
import { rememberedProbe } from '../../sqlite/remembered-probe.js';
import type { StateClock } from '../../sqlite/state-clock.js';
import { chainRows } from './hermes-chain-rows.js';
import { type HermesConversation, HermesGraph } from './hermes-conversation.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';
import { type HermesSession, sessionRows } from './hermes-sessions.js';

/**
 * One canonical id of a Hermes batch and whether a conversation is of its workspace ({@link hermesVerifyMany}).
 * @public
 */
export interface HermesVerifyQuery {
  /** The canonical session id. */
  id: string;
  /** Whether the conversation (its root or tip) is of the query's workspace. */
  ofWorkspace: (conv: HermesConversation) => Promise<boolean>;
  /** Discover mode: true when another row claims the conversation (a chain member), which then never verifies. */
  refuses?: ((conv: HermesConversation) => boolean) | undefined;
}

/**
 * Options of {@link hermesVerifyMany}.
 * @public
 */
export interface HermesVerifyOptions {
  /** The active store's `state.db` (the first of the list), read while the list of stores is on its way. */
  first?: string | undefined;
  /** The ports' clock: with it each store's columns are remembered while its `lstat`s stay the same. */
  now?: StateClock | undefined;
  /** The caller's look at a store's directory, taken as the read starts (see `OpenReadonlyOptions.dirLook`). */
  dirLook?: ((dbPath: string) => PromiseLike<FileStat | null> | undefined) | undefined;
}

// The rows `chainRows` gives for each id, on one open connection with the columns probed once: the whole table (where
// `chainRows` reads it: no parent column, a uuid not stored as given, a runaway neighbourhood) read once for the batch
// and its graph built once.
function graphsOf(db: Database.Database, ids: readonly string[], cols: HermesSessionColumns | null): (HermesGraph | null)[] {
  if (cols === null) return ids.map(() => new HermesGraph([]));
  let rows: HermesSession[] | undefined;
  let all: HermesGraph | undefined;
  const table = (): HermesSession[] => (rows ??= sessionRows(db, cols));
  return ids.map((id) => {
    try {
      const got = chainRows(db, id, cols, table);
      return got === rows ? (all ??= new HermesGraph(got)) : new HermesGraph(got);
    } catch {
      return null;
    }
  });
}

// The conversation of each id in a graph, found once per graph and id (queries of one id share it).
function conversationOf(memo: Map<HermesGraph, Map<string, HermesConversation | undefined>>, graph: HermesGraph, id: string): HermesConversation | undefined {
  let mine = memo.get(graph);
  if (mine === undefined) memo.set(graph, (mine = new Map()));
  if (!mine.has(id)) mine.set(id, graph.conversation(id));
  return mine.get(id);
}

// What one store's graph says of one id: `yes` a conversation of the workspace of its own, `refused` one another row
// claims (discover mode: the answer is false whatever the other stores say), `no` otherwise.
async function ofStore(graph: HermesGraph | null, qy: HermesVerifyQuery, conversation: (g: HermesGraph, id: string) => HermesConversation | undefined): Promise<'yes' | 'no' | 'refused'> {
  if (graph === null) return 'no';
  const own = graph.find(qy.id);
  const conv = own === undefined ? undefined : conversation(graph, qy.id);
  if (own === undefined || conv === undefined || graph.isDelegate(own) || !conv.chain.includes(own.id)) return 'no';
  if (qy.refuses?.(conv) === true) return 'refused';
  return (await qy.ofWorkspace(conv)) ? 'yes' : 'no';
}

async function readStore(fs: FileSystemPort, path: string, ids: readonly string[], opts: HermesVerifyOptions): Promise<(HermesGraph | null)[]> {
  const now = opts.now;
  try {
    // The caller's look at the store's directory starts first: it proves the home even where the store is not there.
    const dirLook = opts.dirLook?.(path);
    // Inside a read scope (a status; every verifyMany) a store that is not there is not asked for: the scope lists what it opened.
    if (inReadScope()) await fs.stat(path);
    return await withReadonlyDb(path, { fs, requireFile: true, dirLook }, (h) => graphsOf(h.db, ids, rememberedProbe(fs, `hermes-columns\0${path}`, h, now, () => hermesSessionColumns(h.db))));
  } catch {
    return ids.map(() => null);
  }
}

/**
 * Hermes's verification of many ids, in order — the one rule set (`verifyArtifact` is a batch of one): each `state.db`
 * (a regular file, checked by the opener) is opened once with its columns probed once, the id's row, ancestors and chain
 * read by the primary key and the parent index on the open connection, and the whole table (where a single id's
 * neighbourhood cannot be walked) read once for the batch, not once per id; the stores are asked in order (the first
 * that answers wins). `dbs` may still be on its way, or be a function asked for the list only when needed:
 * `opts.first` (the active store, which must be the first of `dbs`) is read meanwhile, and where it decides every query
 * (yes, or a refusal) the other stores are neither waited for nor read. With `opts.now` (the ports' clock) each
 * store's columns are remembered under the `lstat`s of the file and its sidecars once settled (see `rememberedProbe`). A store that cannot be read has none of the ids. Never throws.
 * @public
 */
export async function hermesVerifyMany(
  fs: FileSystemPort,
  dbs: readonly string[] | PromiseLike<readonly string[]> | (() => PromiseLike<readonly string[]>),
  queries: readonly HermesVerifyQuery[],
  opts: HermesVerifyOptions = {},
): Promise<boolean[]> {
  if (queries.length === 0) return [];
  // Each distinct id is read once per store, however many queries name it.
  const ids = [...new Set(queries.map((x) => x.id))];
  const slot = new Map(ids.map((id, k) => [id, k]));
  const reads = new Map<string, Promise<(HermesGraph | null)[]>>();
  const read = (path: string): Promise<(HermesGraph | null)[]> => {
    let r = reads.get(path);
    if (r === undefined) reads.set(path, (r = readStore(fs, path, ids, opts)));
    return r;
  };
  const memo = new Map<HermesGraph, Map<string, HermesConversation | undefined>>();
  const conversation = (g: HermesGraph, id: string): HermesConversation | undefined => conversationOf(memo, g, id);
  const answerOf = (graphs: readonly (HermesGraph | null)[], qy: HermesVerifyQuery): Promise<'yes' | 'no' | 'refused' | 'failed'> =>
    ofStore(graphs[slot.get(qy.id) as number] ?? null, qy, conversation).catch(() => 'failed' as const);
  // The active store first: where it decides every query (a conversation of the workspace, or one refused) the others
  // cannot change an answer, and are neither waited for nor read.
  // A list given as a function is asked for only when the active store leaves a query undecided.
  let listed: PromiseLike<readonly string[]> | readonly string[] | undefined = typeof dbs === 'function' ? undefined : dbs;
  const list = (): PromiseLike<readonly string[]> | readonly string[] => (listed ??= (dbs as () => PromiseLike<readonly string[]>)());
  if (listed !== undefined) Promise.resolve(listed).catch(() => undefined);
  if (opts.first === undefined) list();
  let early: Promise<Array<'yes' | 'no' | 'refused' | 'failed'>> | undefined;
  if (opts.first !== undefined) early = read(opts.first).then((graphs) => Promise.all(queries.map((qy) => answerOf(graphs, qy))));
  let paths: readonly string[];
  let first: Array<'yes' | 'no' | 'refused' | 'failed'> | undefined;
  try {
    first = await early;
    if (first !== undefined && first.every((a) => a === 'yes' || a === 'refused')) return first.map((a) => a === 'yes');
    paths = await list();
  } catch {
    return queries.map(() => false);
  }
  const perStore = await Promise.all(paths.map(read));
  return Promise.all(
    queries.map(async (qy, i) => {
      try {
        for (const [j, graphs] of perStore.entries()) {
          // The active store's answers are already known.
          const answer = first !== undefined && paths[j] === opts.first ? (first[i] as 'yes' | 'no' | 'refused' | 'failed') : await answerOf(graphs, qy);
          if (answer === 'failed') return false;
          if (answer !== 'no') return answer === 'yes';
        }
        return false;
      } catch {
        return false;
      }
    }),
  );
}

import type Database from 'better-sqlite3';
import { isUuid } from '../contract/uuid.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { HermesGraph } from './hermes-conversation.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';
import { type HermesSession, type SessionQuery, sessionQuery, sessionRows } from './hermes-sessions.js';

/** Past this many rows the neighbourhood is no cheaper than the table: every row is read instead. */
const MAX_ROWS = 5000;

// The `WHERE` clauses of the walk, built once per remembered columns object.
interface Clauses {
  byKey: string;
  bySpellings: string;
  byParent: string;
}
const clauses = new WeakMap<HermesSessionColumns, Clauses>();

function clausesOf(cols: HermesSessionColumns & { parent: string }): Clauses {
  let c = clauses.get(cols);
  if (c === undefined) clauses.set(cols, (c = { byKey: `${q(cols.id)} = ?`, bySpellings: `${q(cols.id)} IN (?, ?, ?)`, byParent: `${q(cols.parent)} = ?` }));
  return c;
}

/**
 * The rows that decide the conversation of one id, by the primary key and the index on `parent_session_id`: the id's
 * row, its ancestors, and the children of every row of its chain that ended by compression — all that
 * `HermesGraph.conversation` reads to find the id's root, chain and tip (not its purge closure). Every row when the table cannot be walked so
 * (no parent column, an id whose case differs from the stored one, a neighbourhood past {@link MAX_ROWS}): `table`'s
 * rows, which a batch reads once for all its ids. `known`: the id's own row when the caller has just read it on this
 * connection (a non-uuid id, found only as stored: the lookup by the primary key would give exactly that row).
 * @public
 */
export function chainRows(
  db: Database.Database,
  id: string,
  cols: HermesSessionColumns | null = hermesSessionColumns(db),
  table: () => HermesSession[] = () => sessionRows(db, cols),
  known?: HermesSession,
): HermesSession[] {
  if (cols === null) return [];
  if (cols.parent === undefined) return table();
  const byId = new Map<string, HermesSession>();
  const add = (rows: readonly HermesSession[]): HermesSession[] => {
    for (const r of rows) byId.set(r.id, r);
    return [...rows];
  };
  // Each read prepared once per connection (see `prepared`): by the primary key, and by the parent index.
  // By the primary key: a uuid in up to three spellings at once (the id as given, lower- and upper-case), which the graph
  // matches in any case; any other id only as given (the graph compares it exactly), as every parent is (a stored value).
  const where = clausesOf(cols as HermesSessionColumns & { parent: string });
  const byKey = sessionQuery(db, cols, where.byKey) as SessionQuery;
  const byParent = sessionQuery(db, cols, where.byParent) as SessionQuery;
  const uuid = isUuid(id);
  const own = add(uuid ? (sessionQuery(db, cols, where.bySpellings) as SessionQuery)(id, id.toLowerCase(), id.toUpperCase()) : known?.id === id ? [known] : byKey(id));
  // A uuid stored in mixed case matches only by a scan (the graph compares uuids in any case).
  if (own.length === 0) return uuid ? table() : [];
  // Up: every ancestor of the row the graph starts from (a cycle or a runaway chain stops).
  const start = new HermesGraph(own).find(id);
  if (start === undefined) return own;
  for (let cur: HermesSession | undefined = start, seen = new Set<string>(); cur !== undefined && cur.parent !== null && !seen.has(cur.id); ) {
    seen.add(cur.id);
    if (byId.size > MAX_ROWS) return table();
    if (!byId.has(cur.parent)) add(byKey(cur.parent));
    cur = byId.get(cur.parent);
  }
  // The root as the graph finds it (up while a compression continuation), then down: the children of every row that
  // ended by compression (only those continue the chain), from the root.
  const upTo = new HermesGraph([...byId.values()]);
  let root = start;
  for (const seen = new Set<string>(); upTo.isCompressionChild(root) && !seen.has(root.id); ) {
    seen.add(root.id);
    const parent = byId.get(root.parent ?? '');
    if (parent === undefined) break;
    root = parent;
  }
  const queue = [root];
  const opened = new Set<string>();
  for (let n = queue.shift(); n !== undefined; n = queue.shift()) {
    if (n.endReason !== 'compression' || opened.has(n.id)) continue;
    opened.add(n.id);
    if (byId.size > MAX_ROWS) return table();
    queue.push(...add(byParent(n.id)));
  }
  return [...byId.values()];
}

/**
 * {@link chainRows} of `state.db` through the read-only opener; a missing or unreadable database gives none. Never throws.
 * @public
 */
export async function readHermesChainRows(fs: FileSystemPort, dbPath: string, id: string): Promise<HermesSession[]> {
  try {
    return await withReadonlyDb(dbPath, { fs, requireFile: true }, (h) => chainRows(h.db, id));
  } catch {
    return [];
  }
}

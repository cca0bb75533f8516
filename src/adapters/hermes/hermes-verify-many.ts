import type Database from 'better-sqlite3';
import { isUuid } from '../../ids/agent-id.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent as q } from '../../sqlite/schema.js';
import { chainRows } from './hermes-chain-rows.js';
import { type HermesConversation, HermesGraph } from './hermes-conversation.js';
import { type HermesSessionColumns, hermesSessionColumns } from './hermes-layout.js';
import { type HermesSession, type SessionQuery, sessionQuery, sessionRows } from './hermes-sessions.js';

/**
 * One canonical id of a Hermes batch and whether a conversation is of its workspace ({@link hermesVerifyMany}).
 * @public
 */
export interface HermesVerifyQuery {
  /** The canonical session id. */
  id: string;
  /** Whether the conversation (its root or tip) is of the query's workspace. */
  ofWorkspace: (conv: HermesConversation) => Promise<boolean>;
}

// The rows `chainRows` gives for each id, on one open connection with the columns probed once: the whole table (where
// `chainRows` would read it: no parent column, a uuid not stored as given) read once for the batch and its graph built once.
function graphsOf(db: Database.Database, ids: readonly string[]): (HermesGraph | null)[] {
  const cols: HermesSessionColumns | null = hermesSessionColumns(db);
  if (cols === null) return ids.map(() => new HermesGraph([]));
  let all: HermesGraph | undefined;
  const table = (): HermesGraph => (all ??= new HermesGraph(sessionRows(db, cols)));
  const byKey = cols.parent === undefined ? null : (sessionQuery(db, cols, `${q(cols.id)} = ?`) as SessionQuery);
  return ids.map((id) => {
    try {
      if (byKey === null) return table();
      const own: HermesSession[] = [...new Set([id, id.toLowerCase(), id.toUpperCase()])].flatMap((v) => byKey(v));
      if (own.length === 0) return isUuid(id) ? table() : new HermesGraph([]);
      return new HermesGraph(chainRows(db, id, cols));
    } catch {
      return null;
    }
  });
}

// What each store's graph says of one id: true when it is a conversation of the workspace of its own (the `verify` answer).
async function ofStore(graph: HermesGraph | null, qy: HermesVerifyQuery): Promise<boolean> {
  if (graph === null) return false;
  const own = graph.find(qy.id);
  const conv = graph.conversation(qy.id);
  if (own === undefined || conv === undefined || graph.isDelegate(own) || !conv.chain.includes(own.id)) return false;
  return qy.ofWorkspace(conv);
}

/**
 * `verifyArtifact` (`verify` mode) of Hermes for many ids, in order, answering as it does per id: each `state.db` is
 * opened once with its columns probed once, the id's row, ancestors and chain read by the primary key and the parent
 * index on the open connection, and the whole table (where a single check would read it) read once for the batch, not
 * once per id. A store that cannot be read has none of the ids. Never throws.
 * @public
 */
export async function hermesVerifyMany(fs: FileSystemPort, dbs: readonly string[], queries: readonly HermesVerifyQuery[]): Promise<boolean[]> {
  const ids = queries.map((x) => x.id);
  const perStore = await Promise.all(
    dbs.map(async (path): Promise<(HermesGraph | null)[]> => {
      try {
        await fs.stat(path);
        return await withReadonlyDb(path, { fs }, (h) => graphsOf(h.db, ids));
      } catch {
        return ids.map(() => null);
      }
    }),
  );
  return Promise.all(
    queries.map(async (qy, i) => {
      try {
        for (const graphs of perStore) if (await ofStore(graphs[i] ?? null, qy)) return true;
        return false;
      } catch {
        return false;
      }
    }),
  );
}

import type Database from 'better-sqlite3';
import { describeError } from '../../errors.js';
import { isUuid } from '../contract/uuid.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact } from '../../purge/artifact.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { type HermesConversation, HermesGraph } from './hermes-conversation.js';
import { type HermesTarget, hermesIdLikeColumns, hermesLayout } from './hermes-layout.js';
import { sessionRows } from './hermes-sessions.js';

/**
 * The refusal residual names on a `state.db` whose layout this adapter does not know.
 * @public
 */
export const HERMES_UNKNOWN_LAYOUT = 'unknown layout: refusing to purge';

/**
 * What one `state.db` holds of one conversation, read without touching the database's directory.
 * @public
 */
export interface HermesRows {
  /** One record per column that names an id of the conversation, summed over its ids. */
  rows: Extract<Artifact, { kind: 'rows' }>[];
  /** Shared rows still naming an id (`gateway_routing.entry_json`): mentions, never deleted. */
  shared: Extract<Artifact, { kind: 'rows' }>[];
  /** Every id of the conversation found in this database (the chain, its children), as stored. */
  ids: string[];
  /** The conversation, when the layout is known and a row has the id. */
  conversation?: HermesConversation;
  /** Why a purge refuses this database (its layout is not known), when it does. */
  refusal?: string;
  /** Why the database could not be read, when it could not. */
  unreadable?: string;
}

/**
 * Counts, per column, the rows whose value is one of the ids (compared exactly, as stored), as row artifacts.
 * @public
 */
export function countNaming(db: Database.Database, label: string, ids: readonly string[], targets: readonly HermesTarget[]): Extract<Artifact, { kind: 'rows' }>[] {
  const out: Extract<Artifact, { kind: 'rows' }>[] = [];
  if (ids.length === 0) return out;
  const list = JSON.stringify(ids);
  for (const { table, column } of targets) {
    const sql = `SELECT count(*) FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} IN (SELECT value FROM json_each(?))`;
    const count = db.prepare(sql).pluck().get(list) as number;
    if (count > 0) out.push({ kind: 'rows', db: label, table, column, count });
  }
  return out;
}

/**
 * Rows of the shared gateway routing table whose entry JSON names one of the ids (a routing entry, never deleted).
 * @public
 */
export function sharedRowsNaming(db: Database.Database, label: string, ids: readonly string[]): Extract<Artifact, { kind: 'rows' }>[] {
  const cols = db.prepare("SELECT name FROM pragma_table_info('gateway_routing')").pluck().all() as string[];
  if (!cols.includes('entry_json') || ids.length === 0) return [];
  const sql = 'SELECT count(*) FROM gateway_routing WHERE EXISTS (SELECT 1 FROM json_each(?) WHERE instr(gateway_routing.entry_json, json_each.value) > 0)';
  const count = db.prepare(sql).pluck().get(JSON.stringify(ids)) as number;
  return count > 0 ? [{ kind: 'rows', db: label, table: 'gateway_routing', column: 'entry_json', count }] : [];
}

/**
 * The ids of one conversation in an open database: every member of the chain of `id` (and of each remembered id) when a
 * row has it, else the ids themselves.
 * @public
 */
export function conversationIds(graph: HermesGraph, id: string, remembered: readonly string[] = []): { ids: string[]; conversation?: HermesConversation } {
  const conversation = graph.conversation(id);
  const ids = new Set(conversation?.members ?? [graph.find(id)?.id ?? id]);
  for (const r of remembered) for (const m of graph.conversation(r)?.members ?? [r]) ids.add(m);
  return conversation === undefined ? { ids: [...ids] } : { ids: [...ids], conversation };
}

/**
 * The rows naming the conversation of the canonical id: on the known layout those a purge deletes; on an unknown one
 * every id-like column that names the id, with the refusal. A missing database names nothing. Never throws.
 * @public
 */
export async function hermesRowsNaming(fs: FileSystemPort, dbPath: string, id: string, remembered: readonly string[] = []): Promise<HermesRows> {
  try {
    await fs.stat(dbPath);
  } catch {
    return { rows: [], shared: [], ids: [] };
  }
  try {
    return await withReadonlyDb(dbPath, { fs }, (h): HermesRows => {
      const layout = hermesLayout(h.db);
      if (layout.kind === 'known') {
        const found = conversationIds(new HermesGraph(sessionRows(h.db, layout.sessions)), id, remembered);
        return { rows: countNaming(h.db, dbPath, found.ids, layout.targets), shared: sharedRowsNaming(h.db, dbPath, found.ids), ...found };
      }
      const ids = [id, ...remembered].flatMap((i) => (isUuid(i) ? [i, i.toUpperCase()] : [i]));
      return { rows: countNaming(h.db, dbPath, ids, hermesIdLikeColumns(h.db)), shared: [], ids, refusal: layout.reason };
    });
  } catch (err) {
    return { rows: [], shared: [], ids: [], unreadable: describeError(err) };
  }
}

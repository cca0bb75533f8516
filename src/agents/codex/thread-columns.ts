import type Database from 'better-sqlite3';
import { tableColumns, tableNames } from '../../sqlite/schema.js';

/**
 * A table column that holds a Codex thread id.
 * @public
 */
export interface ThreadColumn {
  table: string;
  column: string;
}

/**
 * The thread-id columns of one Codex database: `owned` rows belong to the thread named there (a purge deletes them, the
 * `threads` row last); `mentions` are other rows that only refer to it (another thread's `attached_thread_parent_id`,
 * a migration watermark) and are never deleted.
 * @public
 */
export interface ThreadColumns {
  /** Columns whose value is the owning thread's id. */
  owned: ThreadColumn[];
  /** Columns of other rows that only refer to a thread. */
  mentions: ThreadColumn[];
  /**
   * Columns outside `threads` holding a rollout's path (`rollout_migration_skipped_rollouts.rollout_path`): a row there
   * belongs to the thread whose id the path's file name carries (the id is inside the value, so the equality rule misses it).
   */
  rolloutPaths: ThreadColumn[];
}

// A row keyed by one of these belongs to that thread (Codex's session id is its thread id); a spawn edge belongs to both ends.
const OWNED = new Set(['thread_id', 'session_id', 'conversation_id', 'parent_thread_id', 'child_thread_id']);

function threadLike(column: string): boolean {
  return column.includes('thread') && column.endsWith('id');
}

/**
 * Sorts every column of a database that names threads into owned and mentioning ones, discovered from the schema
 * (any table with a `thread_id`-like column), so a new Codex table is covered without a code change.
 * @public
 */
export function threadColumns(db: Database.Database): ThreadColumns {
  const owned: ThreadColumn[] = [];
  const mentions: ThreadColumn[] = [];
  const rolloutPaths: ThreadColumn[] = [];
  let threadsId: ThreadColumn | undefined;
  for (const table of tableNames(db)) {
    const isThreads = table.toLowerCase() === 'threads';
    for (const column of tableColumns(db, table)) {
      const c = column.toLowerCase();
      // In `threads` only `id` is the row's own thread; any other thread column there is another thread's reference.
      if (isThreads && c === 'id') threadsId = { table, column };
      else if (!isThreads && OWNED.has(c)) owned.push({ table, column });
      else if (threadLike(c)) mentions.push({ table, column });
      else if (!isThreads && c === 'rollout_path') rolloutPaths.push({ table, column });
    }
  }
  if (threadsId !== undefined) owned.push(threadsId);
  return { owned, mentions, rolloutPaths };
}

import type Database from 'better-sqlite3';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent as q, tableNames, userVersion } from '../../sqlite/schema.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import { HermesGraph } from './hermes-conversation.js';
import { hermesLayout } from './hermes-layout.js';
import type { HermesStore } from './hermes-paths.js';
import { sessionRows } from './hermes-sessions.js';

interface DbFacts {
  version: string;
  unknown: string | null;
  sessions: number;
  conversations: number;
  chains: number;
  delegates: number;
}

function schemaVersion(db: Database.Database): string {
  const table = tableNames(db).find((t) => t.toLowerCase() === 'schema_version');
  const v = table === undefined ? undefined : (db.prepare(`SELECT max(version) FROM ${q(table)}`).pluck().get() as unknown);
  return typeof v === 'number' || typeof v === 'string' ? `schema ${v}` : `user_version ${userVersion(db)}`;
}

function facts(db: Database.Database): DbFacts {
  const layout = hermesLayout(db);
  const rows = layout.kind === 'known' ? sessionRows(db, layout.sessions) : sessionRows(db);
  const graph = new HermesGraph(rows);
  const roots = graph.roots();
  return {
    version: schemaVersion(db),
    unknown: layout.kind === 'unknown' ? layout.reason : null,
    sessions: rows.length,
    conversations: roots.length,
    chains: roots.filter((r) => (graph.conversation(r.id)?.chain.length ?? 1) > 1).length,
    delegates: rows.filter((r) => graph.isDelegate(r)).length,
  };
}

function add(counts: Record<string, number>, key: string, n: number): void {
  counts[key] = (counts[key] ?? 0) + n;
}

/**
 * A read-only look at every Hermes store (the active root, `<home>/.hermes`, each profile): the schema version each
 * `state.db` records, the adapter's layout verdict, session, conversation, compression-chain and delegate counts, and
 * problems (a root that is no directory or does not list, an unreadable database, an unknown layout with its reason).
 * Never rejects.
 * @public
 */
export async function inspectHermesStores(fs: FileSystemPort, stores: readonly HermesStore[]): Promise<StoreReport> {
  const active = stores[0];
  const report: StoreReport = { agent: 'hermes', presence: 'absent', root: active?.root ?? null, layout: null, known: null, counts: {}, problems: [] };
  const layouts: string[] = [];
  for (const store of stores) {
    const root = await lookAtRoot(fs, store.root);
    if (root.kind === 'absent') continue;
    report.presence = 'present';
    if (root.kind === 'unreadable') {
      report.readable = false;
      report.problems.push(root.problem);
      continue;
    }
    add(report.counts, 'stores', 1);
    if ((await fs.lstat(store.db).catch(() => null)) === null) continue;
    try {
      const f = await withReadonlyDb(store.db, { fs }, ({ db }) => facts(db));
      layouts.push(`${store.profile === 'default' ? 'state.db' : `profiles/${store.profile}/state.db`} ${f.version}`);
      add(report.counts, 'sessions', f.sessions);
      add(report.counts, 'conversations', f.conversations);
      add(report.counts, 'compression chains', f.chains);
      add(report.counts, 'delegate children', f.delegates);
      if (f.unknown !== null) {
        report.known = false;
        report.problems.push(`${store.db}: unknown layout (${f.unknown}): purges refuse`);
      } else report.known ??= true;
    } catch (err) {
      report.known = false;
      report.readable = false;
      report.problems.push(`${store.db}: unreadable (${describeError(err)}): purges refuse`);
    }
  }
  if (layouts.length > 0) report.layout = layouts.join(', ');
  return report;
}

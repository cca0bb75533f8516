import type Database from 'better-sqlite3';
import { basename } from 'node:path';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { quoteIdent as q, tableColumns, tableNames, userVersion } from '../../sqlite/schema.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { scanRollouts } from './rollout-scan.js';
import { stateLayout } from './state-layout.js';

function find(names: readonly string[], wanted: string): string | undefined {
  return names.find((n) => n.toLowerCase() === wanted);
}

// sqlx records every applied migration: the highest version is the schema the CLI says it wrote.
function migration(db: Database.Database): number | null {
  const t = find(tableNames(db), '_sqlx_migrations');
  if (t === undefined) return null;
  const v = db.prepare(`SELECT max(version) FROM ${q(t)} WHERE success`).pluck().get();
  return typeof v === 'number' || typeof v === 'bigint' ? Number(v) : null;
}

interface StateFacts {
  text: string;
  known: boolean;
  counts: Record<string, number>;
  problems: string[];
  /** Rows recording a rollout outside the home's rollout roots. */
  outside: number;
}

function stateFacts(db: Database.Database, name: string, home: CodexHome): StateFacts {
  const layout = stateLayout(db);
  const version = `${name} (user_version ${userVersion(db)}, migration ${migration(db) ?? 'none'})`;
  if (layout.kind !== 'known') return { text: `${version}: unknown layout (${layout.reason})`, known: false, counts: {}, problems: [`${name}: unknown layout (${layout.reason}): purges refuse`], outside: 0 };
  const t = q(layout.table);
  const counts: Record<string, number> = { threads: db.prepare(`SELECT count(*) FROM ${t}`).pluck().get() as number };
  const cols = tableColumns(db, layout.table);
  const archived = find(cols, 'archived');
  if (archived !== undefined) counts['archived'] = db.prepare(`SELECT count(*) FROM ${t} WHERE ${q(archived)} = 1`).pluck().get() as number;
  const source = find(cols, 'source');
  if (source !== undefined) counts['sub-agent threads'] = db.prepare(`SELECT count(*) FROM ${t} WHERE ${q(source)} LIKE '%subagent%'`).pluck().get() as number;
  const problems: string[] = [];
  const outside = db
    .prepare(`SELECT count(*) FROM ${t} WHERE NOT (${q(layout.rollout)} LIKE ? ESCAPE '\\' OR ${q(layout.rollout)} LIKE ? ESCAPE '\\')`)
    .pluck()
    .get(...[home.sessions, home.archived].map((r) => `${r.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`)) as number;
  if (outside > 0) problems.push(`${name}: ${outside} threads rows record a rollout_path outside ${home.home} (a moved CODEX_HOME, or a copy of one: rollouts are looked up by id under the home)`);
  if (!layout.complete) problems.push(`${name}: the rollout backfill has not completed (discovery also scans the rollouts)`);
  return { text: version, known: true, counts, problems, outside };
}

/**
 * A read-only look at a Codex home: its databases (each state DB's `user_version`, sqlx migration and layout, thread
 * counts, rows pointing outside the home — `outsideHome`; an unreadable one is a problem, and makes the report
 * `readable: false`) and the rollouts by name. Never rejects.
 * @public
 */
export async function inspectCodexHome(fs: FileSystemPort, home: CodexHome): Promise<StoreReport> {
  const report: StoreReport = { agent: 'codex', presence: 'absent', root: home.home, layout: null, known: null, counts: {}, problems: [] };
  const root = await lookAtRoot(fs, home.home);
  if (root.kind === 'absent') return report;
  report.presence = 'present';
  if (root.kind === 'unreadable') return { ...report, known: false, problems: [root.problem], readable: false };
  report.outsideHome = 0;
  const layouts: string[] = [];
  let known = true;
  const dbs = await codexDbs(fs, home);
  report.counts['databases'] = dbs.length;
  for (const d of dbs) {
    try {
      const facts = await withReadonlyDb(d.path, { fs }, ({ db }) => (d.state ? stateFacts(db, basename(d.path), home) : null));
      if (facts === null) continue;
      layouts.push(facts.text);
      known &&= facts.known;
      for (const [k, v] of Object.entries(facts.counts)) report.counts[k] = (report.counts[k] ?? 0) + v;
      report.problems.push(...facts.problems);
      report.outsideHome += facts.outside;
    } catch (err) {
      report.readable = false;
      report.problems.push(`${d.path}: unreadable (${describeError(err)})${d.state ? ': purges refuse' : ''}`);
      if (d.state) known = false;
    }
  }
  const scan = await scanRollouts(fs, home);
  report.counts['rollouts'] = scan.files.length;
  report.problems.push(...scan.unreadable.map((u) => `${u}: unreadable (rollouts there are not seen)`));
  if (scan.unreadable.length > 0) report.readable = false;
  report.layout = layouts.length > 0 ? layouts.join('; ') : scan.files.length > 0 ? 'rollouts only (no state database)' : null;
  report.known = layouts.length > 0 || scan.files.length > 0 ? known : null;
  return report;
}

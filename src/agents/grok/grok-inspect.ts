import { basename, join } from 'node:path';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { userVersion } from '../../sqlite/schema.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import type { GrokHome } from './grok-home.js';
import { listDirOrNull } from '../common/read-regular.js';
import { grokSearchDbs } from './grok-search-db.js';
import { grokSearchLayout } from './grok-search-layout.js';
import { grokBuckets } from './grok-session-dirs.js';
import { readGrokSummary } from './grok-summary.js';

function bump(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}

async function inspectSessions(fs: FileSystemPort, sessions: string, report: StoreReport): Promise<void> {
  const buckets = await grokBuckets(fs, sessions);
  report.counts['session buckets'] = buckets.length;
  report.counts['sessions'] = 0;
  report.counts['hidden (subagent) sessions'] = 0;
  for (const b of buckets) {
    if (b.link) {
      report.problems.push(`${b.path}: a bucket that is a symbolic link: not followed`);
      continue;
    }
    for (const e of (await listDirOrNull(fs, b.path)) ?? []) {
      if (e.kind !== 'dir') continue;
      const read = await readGrokSummary(fs, join(b.path, e.name));
      if (read.kind === 'missing') continue;
      if (read.kind === 'problem') {
        report.problems.push(`${join(b.path, e.name)}: ${read.problem}`);
        continue;
      }
      bump(report.counts, 'sessions');
      if (read.summary.hidden) bump(report.counts, 'hidden (subagent) sessions');
    }
  }
}

async function inspectSearch(fs: FileSystemPort, sessions: string, report: StoreReport): Promise<string[]> {
  const search = await grokSearchDbs(fs, sessions);
  const layouts: string[] = [];
  for (const left of search.refused) {
    report.known = false;
    report.problems.push(`${left.kind === 'rows' ? left.db : left.path}: ${left.reason}`);
  }
  for (const db of search.dbs) {
    try {
      const f = await withReadonlyDb(db, { fs }, ({ db: h }) => ({ layout: grokSearchLayout(h), version: userVersion(h) }));
      layouts.push(`${basename(db)} (user_version ${f.version})`);
      if (f.layout.kind === 'unknown') {
        report.known = false;
        report.problems.push(`${db}: unknown search layout (${f.layout.reason}): purges refuse`);
      } else report.known ??= true;
    } catch (err) {
      report.known = false;
      report.readable = false;
      report.problems.push(`${db}: unreadable (${describeError(err)}): purges refuse`);
    }
  }
  report.counts['search databases'] = search.dbs.length;
  return layouts;
}

/**
 * A read-only look at a grok home (`GROK_HOME`, else `<home>/.grok`) without running the CLI: session buckets and
 * sessions (`summary.json` files), the search databases and whether their layout is the one grok writes, and problems
 * (unparseable summaries, a linked `sessions/` or bucket, an unreadable or unknown search database; a root or database
 * that cannot be read is `readable: false`). Never rejects.
 * @public
 */
export async function inspectGrokHome(fs: FileSystemPort, home: GrokHome): Promise<StoreReport> {
  if (home.kind === 'refused') return { agent: 'grok', presence: 'present', root: home.value, layout: null, known: false, counts: {}, problems: [home.reason] };
  const report: StoreReport = { agent: 'grok', presence: 'absent', root: home.root, layout: null, known: null, counts: {}, problems: [] };
  const root = await lookAtRoot(fs, home.root);
  if (root.kind === 'absent') return report;
  report.presence = 'present';
  if (root.kind === 'unreadable') return { ...report, problems: [root.problem], readable: false };
  const kind = await fs.lstat(home.sessions).then((s) => s.kind, () => null);
  if (kind === 'symlink') {
    report.known = false;
    report.problems.push(`${home.sessions}: sessions/ is a symbolic link: not followed, purges refuse`);
    return report;
  }
  if (kind !== 'dir') return report;
  await inspectSessions(fs, home.sessions, report);
  const layouts = await inspectSearch(fs, home.sessions, report);
  report.layout = layouts.length > 0 ? `session dirs + ${layouts.join(', ')}` : 'session dirs (no search database)';
  report.known ??= true;
  return report;
}

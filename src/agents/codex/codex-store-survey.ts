import { sep } from 'node:path';
import { describeError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { surveyRoot } from '../common/store-survey.js';
import type { StoreSurvey } from '../types.js';
import { codexDbs } from './codex-dbs.js';
import type { CodexHome } from './codex-home.js';
import { scanRollouts } from './rollout-scan.js';
import { stateLayout } from './state-layout.js';

// The recorded rollout paths of every thread (read-only), or why not.
async function recordedPaths(fs: FileSystemPort, db: string): Promise<{ paths: string[] } | { unknown: string } | { unreadable: string }> {
  try {
    return await withReadonlyDb(db, { fs }, ({ db: conn }) => {
      const l = stateLayout(conn);
      if (l.kind !== 'known') return { unknown: l.reason };
      const paths = conn.prepare(`SELECT ${quoteIdent(l.rollout)} FROM ${quoteIdent(l.table)}`).pluck().all() as unknown[];
      return { paths: paths.filter((p): p is string => typeof p === 'string') };
    });
  } catch (err) {
    return { unreadable: describeError(err) };
  }
}

/**
 * What a Codex home holds, cheaply: its rollouts (listed by name), every state database's layout and `threads` rows, and
 * how many of those rows record a rollout outside the home — a moved `CODEX_HOME`, whose threads `discover` cannot prove.
 * Read-only; never throws.
 * @public
 */
export async function surveyCodexStore(fs: FileSystemPort, home: CodexHome): Promise<StoreSurvey> {
  const base = await surveyRoot(fs, 'codex', home.home);
  if (base.store !== 'ok') return base;
  const [dbs, rollouts] = await Promise.all([codexDbs(fs, home), scanRollouts(fs, home)]);
  const counts: Record<string, number> = { rollouts: rollouts.files.length, databases: dbs.length, threads: 0 };
  let outside = 0;
  const problems: string[] = [];
  let unknown = false;
  for (const db of dbs.filter((d) => d.state)) {
    const found = await recordedPaths(fs, db.path);
    if ('unknown' in found) {
      unknown = true;
      problems.push(`${db.path}: unknown layout (${found.unknown})`);
    } else if ('unreadable' in found) problems.push(`${db.path}: unreadable (${found.unreadable})`);
    else {
      counts['threads'] = (counts['threads'] ?? 0) + found.paths.length;
      outside += found.paths.filter((p) => !p.startsWith(home.home + sep)).length;
    }
  }
  if (unknown) return { agent: 'codex', store: 'unknown-layout', root: home.home, reason: problems.join('; '), counts };
  if (problems.length > 0) return { agent: 'codex', store: 'unreadable', root: home.home, reason: problems.join('; '), counts };
  const reason =
    outside > 0
      ? `${outside} of ${counts['threads'] ?? 0} threads rows record a rollout outside ${home.home} (a moved CODEX_HOME?): those threads cannot be proven and are not discovered`
      : undefined;
  return { agent: 'codex', store: 'ok', root: home.home, counts, outsideHome: outside, ...(reason === undefined ? {} : { reason }) };
}

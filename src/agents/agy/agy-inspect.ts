import { join } from 'node:path';
import { describeError } from '../../errors.js';
import { canonicalAgyId } from './agy-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { userVersion } from '../../sqlite/schema.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import type { AgyPaths } from './agy-paths.js';
import { isAgySqliteFile } from '../common/read-text.js';
import { hasAgySummaryIndex } from './agy-summaries.js';
import { readAgyTrajectory } from './agy-trajectory.js';

const isDir = async (fs: FileSystemPort, path: string): Promise<boolean> => (await fs.lstat(path).catch(() => null))?.kind === 'dir';

// Counts `<uuid>.db` conversations (and `.pb` stores) of one conversations dir; a `.db` that is no SQLite database, or
// opens without a record, is a problem.
async function conversations(fs: FileSystemPort, dir: string, label: string, report: StoreReport): Promise<void> {
  let entries;
  try {
    entries = await fs.readdir(dir);
  } catch (err) {
    if (await isDir(fs, dir)) {
      report.readable = false;
      report.problems.push(`${dir}: unreadable (${describeError(err)})`);
    }
    return;
  }
  let dbs = 0;
  let pbs = 0;
  let subagents = 0;
  for (const e of [...entries].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const path = join(dir, e.name);
    if (e.name.endsWith('.pb') && e.kind === 'file') pbs += 1;
    if (!e.name.endsWith('.db') || canonicalAgyId(e.name.slice(0, -3)) !== e.name.slice(0, -3)) continue;
    if (e.kind !== 'file') {
      report.problems.push(`${path}: not a regular file: not read`);
      continue;
    }
    if (!(await isAgySqliteFile(fs, path))) {
      report.problems.push(`${path}: not a SQLite database: not read`);
      continue;
    }
    const t = await readAgyTrajectory(fs, path);
    if (t === null) {
      report.readable = false;
      report.problems.push(`${path}: unreadable, or no conversation record in it`);
      continue;
    }
    dbs += 1;
    if (t.parent !== null || t.depth >= 1) subagents += 1;
  }
  report.counts[`${label} conversations (.db)`] = dbs;
  if (label === 'cli') {
    report.counts['cli conversations (.pb)'] = pbs;
    report.counts['cli subagent conversations'] = subagents;
  }
}

// The shared summaries index: its user_version and rows, or why it is not read.
async function summaries(fs: FileSystemPort, db: string, report: StoreReport): Promise<string | null> {
  const st = await fs.lstat(db).catch(() => null);
  if (st === null) return null;
  const refuse = (why: string): null => {
    report.known = false;
    report.problems.push(`${db}: ${why}: purges refuse`);
    return null;
  };
  if (st.kind !== 'file') return refuse('not a regular file');
  if (st.size === 0) return 'conversation_summaries.db (empty)';
  if (!(await isAgySqliteFile(fs, db))) return refuse('not a SQLite database');
  try {
    const f = await withReadonlyDb(db, { fs }, ({ db: h }) => {
      const index = hasAgySummaryIndex(h);
      const rows = index ? (h.prepare('SELECT count(*) FROM conversation_summaries').pluck().get() as number) : null;
      return { version: userVersion(h), rows };
    });
    if (f.rows === null) report.problems.push(`${db}: no conversation_summaries(conversation_id) table: its rows are not searched`);
    else report.counts['summary index rows'] = f.rows;
    return `conversation_summaries.db (user_version ${f.version}${f.rows === null ? ', unknown table' : ''})`;
  } catch (err) {
    report.readable = false;
    return refuse(`unreadable (${describeError(err)})`);
  }
}

/**
 * A read-only look at agy's stores without running the CLI: the CLI root and the ACP server's root, their `.db`
 * conversations (and `.pb` stores, subagents), the shared summaries index's version and rows, and problems (a
 * `.db` that is not SQLite, an unreadable file or index: `readable: false`). Never rejects.
 * @public
 */
export async function inspectAgyStores(fs: FileSystemPort, p: AgyPaths): Promise<StoreReport> {
  const report: StoreReport = { agent: 'agy', presence: 'absent', root: p.root, layout: null, known: null, counts: {}, problems: [] };
  const roots = [(await isDir(fs, p.root)) ? 'antigravity-cli' : null, (await isDir(fs, p.acpRoot)) ? 'antigravity-acp' : null].filter((x): x is string => x !== null);
  if (roots.length === 0) {
    // A CLI root that is there but no directory, or behind a dir that does not list, may hold conversations.
    const root = await lookAtRoot(fs, p.root);
    return root.kind === 'unreadable' ? { ...report, presence: 'present', problems: [root.problem], readable: false } : report;
  }
  report.presence = 'present';
  if (roots[0] === 'antigravity-acp' && roots.length === 1) report.root = p.acpRoot;
  await conversations(fs, p.conversations, 'cli', report);
  await conversations(fs, p.acpConversations, 'acp', report);
  const index = await summaries(fs, p.summariesDb, report);
  report.layout = [roots.join(' + '), index].filter((x): x is string => x !== null).join('; ');
  report.known ??= true;
  return report;
}

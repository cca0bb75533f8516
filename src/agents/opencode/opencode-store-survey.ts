import { describeError, isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent } from '../../sqlite/schema.js';
import type { StoreSurvey } from '../types.js';
import { detectOpencodeLayout, isKnownLayout, sessionTables } from './opencode-layout.js';
import type { OpencodeLocation } from './opencode-locator.js';

/**
 * What the OpenCode database holds: `missing` without it, `unreadable`, `unknown-layout` (neither `session` nor
 * `session_v2`), else `ok` with the sessions of each table. Read-only; never throws.
 * @public
 */
export async function surveyOpencodeStore(fs: FileSystemPort, loc: OpencodeLocation): Promise<StoreSurvey> {
  const root = loc.dbPath;
  try {
    await fs.stat(root);
  } catch (err) {
    if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) return { agent: 'opencode', store: 'missing', root, reason: `${root} does not exist` };
    return { agent: 'opencode', store: 'unreadable', root, reason: describeError(err) };
  }
  try {
    return await withReadonlyDb(root, { fs }, ({ db }): StoreSurvey => {
      const layout = detectOpencodeLayout(db);
      if (!isKnownLayout(layout)) return { agent: 'opencode', store: 'unknown-layout', root, reason: 'neither a session nor a session_v2 table: a layout this library does not know' };
      const counts: Record<string, number> = {};
      for (const t of sessionTables(layout)) counts[t.table] = db.prepare(`SELECT count(*) FROM ${quoteIdent(t.table)}`).pluck().get() as number;
      return { agent: 'opencode', store: 'ok', root, counts };
    });
  } catch (err) {
    return { agent: 'opencode', store: 'unreadable', root, reason: describeError(err) };
  }
}

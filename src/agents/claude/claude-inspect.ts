import { join } from 'node:path';
import { describeError, isPortError } from '../../errors.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { mapLimit } from '../../map-limit.js';
import { lookAtRoot } from '../common/store-root.js';
import type { StoreReport } from '../types.js';
import type { ClaudeLocations } from './claude-locations.js';
import { transcriptIds } from './transcript-scan.js';
import { unknownStores } from './unknown-stores.js';

// The heads read for version fields: enough to see what wrote the store, bounded whatever its size.
const SAMPLED = 16;
const HEAD = 16 * 1024;
const VERSION = /"version":"([0-9][0-9A-Za-z.+-]{0,40})"/;

/**
 * A read-only look at Claude Code's config root: project key dirs, transcripts (listed, a few heads read for the
 * `version` fields Claude writes into its records), live-session files, and unknown stores (SQLite files Claude 2.x does
 * not write: a purge naming an id in one refuses); a root that is no directory or does not list is unreadable. Never
 * rejects.
 * @public
 */
export async function inspectClaudeConfig(fs: FileSystemPort, loc: ClaudeLocations): Promise<StoreReport> {
  const report: StoreReport = { agent: 'claude', presence: 'absent', root: loc.config, layout: null, known: null, counts: {}, problems: [] };
  const root = await lookAtRoot(fs, loc.config);
  if (root.kind === 'absent') return report;
  report.presence = 'present';
  if (root.kind === 'unreadable') return { ...report, problems: [root.problem], readable: false };
  const projects = join(loc.config, 'projects');
  const listed = await fs.readdir(projects).catch((err: unknown) => {
    if (!isPortError(err, 'NotFound') && !isPortError(err, 'NotADirectory')) {
      report.problems.push(`${projects}: unreadable (${describeError(err)})`);
      report.readable = false;
    }
    return [];
  });
  const keys = listed.filter((e) => e.kind === 'dir').map((e) => e.name);
  const transcripts = (await mapLimit(keys, 8, async (k) => (await transcriptIds(fs, join(projects, k))).map((id) => join(projects, k, `${id}.jsonl`)))).flat();
  report.counts['project dirs'] = keys.length;
  report.counts['transcripts'] = transcripts.length;
  report.counts['session files'] = (await fs.readdir(join(loc.config, 'sessions')).catch(() => [])).filter((e) => /^[1-9][0-9]*\.json$/.test(e.name)).length;
  const versions = new Set<string>();
  await mapLimit(transcripts.sort().slice(-SAMPLED), 4, async (p) => {
    const text = new TextDecoder().decode(await fs.readHead(p, HEAD).catch(() => new Uint8Array()));
    const v = VERSION.exec(text)?.[1];
    if (v !== undefined) versions.add(v);
  });
  const stores = await unknownStores(fs, loc.config);
  report.counts['unknown stores'] = stores.length;
  for (const db of stores) report.problems.push(`${db}: an unknown store (a purge of an id it names refuses)`);
  report.layout = `transcripts (JSONL)${versions.size > 0 ? `, written by ${[...versions].sort().join(', ')}` : ''}`;
  report.known = true;
  return report;
}

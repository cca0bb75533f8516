import { join } from 'node:path';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { type FactClock, rememberedFact } from '../common/remembered-fact.js';
import { type GrokSummaryRead, readGrokSummary } from './grok-summary.js';

/**
 * {@link readGrokSummary} of a session dir, remembered for the port under the `lstat` of its `summary.json` (taken before
 * the read) once that has settled by `now`: a later call of an unchanged file costs that one `lstat`, which is also the
 * check that it is still a regular file; any change of it (appended, rewritten, replaced, swapped for a link) is read
 * afresh. Nothing there is `missing` at once; without `now` every call reads. Never throws.
 * @public
 */
export async function rememberedGrokSummary(fs: FileSystemPort, sessionDir: string, now?: FactClock): Promise<GrokSummaryRead> {
  if (now === undefined) return readGrokSummary(fs, sessionDir);
  const path = join(sessionDir, 'summary.json');
  let st: FileStat;
  try {
    st = await fs.lstat(path);
  } catch {
    // What readGrokFile answers for an lstat that fails.
    return { kind: 'missing' };
  }
  return rememberedFact(fs, `grok.summary\0${path}`, [st], now, () => readGrokSummary(fs, sessionDir)).catch(() => readGrokSummary(fs, sessionDir));
}

import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact } from '../../purge/artifact.js';
import { agyCacheNames } from './agy-cache.js';
import { agyForkMentions } from './agy-fork-mentions.js';
import type { AgyPaths } from './agy-paths.js';
import { surveyAgy } from './agy-survey.js';

/** Larger than a history this adapter scans; a bigger one is reported as not checked. */
const MAX_HISTORY_BYTES = 64 * 1024 * 1024;

// `history.jsonl` names the id on the lines of its prompts (`conversationId`): never rewritten, only reported.
async function historyMention(fs: FileSystemPort, path: string, id: string): Promise<string | null> {
  try {
    const st = await fs.lstat(path);
    if (st.kind !== 'file') return null;
    // Too large to scan: it may name the id, so it is listed.
    if (st.size > MAX_HISTORY_BYTES) return path;
    const bytes = await fs.readFile(path);
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1').toLowerCase();
    return text.includes(id) ? path : null;
  } catch {
    return null;
  }
}

/**
 * The shared files of an agy root that still name the canonical id and that a purge never removes or rewrites: the
 * prompt history `history.jsonl`, the last-conversation cache, and the `parent_references` rows of other conversations
 * (a fork's reference to its source). Never throws.
 * @public
 */
export async function agyMentions(fs: FileSystemPort, p: AgyPaths, id: string): Promise<Artifact[]> {
  const out: Artifact[] = [];
  const history = await historyMention(fs, p.historyFile, id);
  if (history !== null) out.push({ kind: 'file', path: history });
  if (await agyCacheNames(fs, p.cacheFile, id)) out.push({ kind: 'file', path: p.cacheFile });
  out.push(...(await agyForkMentions(fs, p, id, await surveyAgy(fs, p))));
  return out;
}

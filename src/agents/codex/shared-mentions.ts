import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import type { CodexHome } from './codex-home.js';

// Files every conversation of a home appends to: prompt history (`session_id`), the thread-name index, the TUI log.
const SHARED = ['history.jsonl', 'session_index.jsonl', 'log/codex-tui.log'] as const;
const MAX_CHECKED = 64 * 1024 * 1024;

/**
 * The shared files of a Codex home (never removed or rewritten) that still name the canonical id; a file too large to
 * read is listed as not checked rather than skipped.
 * @public
 */
export async function sharedMentions(fs: FileSystemPort, home: CodexHome, id: string): Promise<Artifact[]> {
  const out: Artifact[] = [];
  const needle = Buffer.from(id, 'utf8');
  for (const rel of SHARED) {
    const path = join(home.home, rel);
    try {
      const st = await fs.stat(path);
      if (st.kind !== 'file') continue;
      if (st.size > MAX_CHECKED) {
        out.push({ kind: 'file', path, reason: 'too large to check' } as LeftArtifact);
        continue;
      }
      const bytes = await fs.readFile(path);
      if (Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(needle)) out.push({ kind: 'file', path });
    } catch {
      continue;
    }
  }
  return out;
}

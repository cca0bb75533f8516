import { join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ArtifactPath } from '../common/artifacts.js';

// A shared file larger than this is not scanned for mentions (it is reported as not checked instead).
const MAX_SCAN_BYTES = 32 * 1024 * 1024;

async function names(fs: FileSystemPort, dir: string): Promise<Array<{ name: string; kind: string }>> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}

/**
 * The per-session files of the ids in one Hermes root: `sessions/session_<id>.json` (JSON snapshot), `sessions/<id>.json`,
 * `sessions/<id>.jsonl` and `sessions/request_dump_<id>_*.json` (API dumps), as found on disk (a link included: removal
 * never follows it). The ids are plausible (canonical) ids: each is one safe path component.
 * @public
 */
export async function hermesSessionFiles(fs: FileSystemPort, root: string, ids: readonly string[]): Promise<ArtifactPath[]> {
  if (ids.length === 0) return [];
  const dir = join(root, 'sessions');
  const entries = await names(fs, dir);
  const out: ArtifactPath[] = [];
  for (const id of ids) {
    const own = new Set([`session_${id}.json`, `${id}.json`, `${id}.jsonl`]);
    const dump = `request_dump_${id}_`;
    for (const e of entries) {
      if (own.has(e.name) || (e.name.startsWith(dump) && e.name.endsWith('.json'))) out.push({ root, path: join(dir, e.name) });
    }
  }
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * Shared Hermes files still naming one of the ids — `sessions/sessions.json` and `logs/*.log` — never removed. Only
 * regular files are read; one that cannot be read is skipped.
 * @public
 */
export async function hermesMentions(fs: FileSystemPort, root: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const candidates = [join(root, 'sessions', 'sessions.json')];
  for (const e of await names(fs, join(root, 'logs'))) if (e.name.endsWith('.log')) candidates.push(join(root, 'logs', e.name));
  const out: string[] = [];
  for (const path of candidates.sort()) {
    try {
      const st = await fs.lstat(path);
      if (st.kind !== 'file' || st.size > MAX_SCAN_BYTES) continue;
      const text = await fs.readText(path);
      if (ids.some((id) => text.includes(id))) out.push(path);
    } catch {
      // Absent or unreadable: it names nothing we can tell.
    }
  }
  return out;
}

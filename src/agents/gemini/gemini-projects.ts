import { isAbsolute, join } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { listDirOrNull, readRegularFile } from '../common/read-regular.js';

/** Bounds of the small files naming a project's directory. */
const PROJECT_ROOT_MAX = 64 * 1024;
const PROJECTS_JSON_MAX = 4 * 1024 * 1024;

/**
 * One project of a Gemini CLI root: `tmp/<short>/`, the workspace it belongs to (its `.project_root`, else the entry of
 * `projects.json` naming `<short>`; null when neither says), and whether `tmp/<short>` is a symbolic link (never followed).
 * @public
 */
export interface GeminiProject {
  /** The short name (`ws-gemini`, `ws-gemini-1` …). */
  short: string;
  /** `<root>/tmp/<short>`. */
  dir: string;
  /** The workspace's absolute path as recorded, or null. */
  workspace: string | null;
  /** `tmp/<short>` is a symbolic link: nothing below it is read or removed. */
  link: boolean;
}

/**
 * `projects.json` as a map from short name to workspace (`{"projects":{"<abs cwd>":"<short>"}}`); empty when missing,
 * not a regular file or not of that shape. Never throws.
 * @public
 */
export async function readProjectsJson(fs: FileSystemPort, root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const read = await readRegularFile(fs, join(root, 'projects.json'), PROJECTS_JSON_MAX);
  if (read.kind !== 'text') return out;
  try {
    const projects = (JSON.parse(read.text) as { projects?: unknown }).projects;
    if (typeof projects !== 'object' || projects === null) return out;
    for (const [path, short] of Object.entries(projects as Record<string, unknown>)) {
      if (typeof short === 'string' && isAbsolute(path) && !out.has(short)) out.set(short, path);
    }
  } catch {
    // Not JSON: it names nothing.
  }
  return out;
}

/**
 * Every project dir under `<root>/tmp/` with the workspace it records. `.project_root` is read as a regular file only.
 * Never throws.
 * @public
 */
export async function geminiProjects(fs: FileSystemPort, root: string): Promise<GeminiProject[]> {
  const tmp = join(root, 'tmp');
  const entries = (await listDirOrNull(fs, tmp)) ?? [];
  const named = await readProjectsJson(fs, root);
  const out: GeminiProject[] = [];
  for (const e of entries) {
    if (e.kind !== 'dir' && e.kind !== 'symlink') continue;
    const dir = join(tmp, e.name);
    if (e.kind === 'symlink') {
      out.push({ short: e.name, dir, workspace: named.get(e.name) ?? null, link: true });
      continue;
    }
    const read = await readRegularFile(fs, join(dir, '.project_root'), PROJECT_ROOT_MAX);
    const recorded = read.kind === 'text' ? read.text.replace(/\r?\n$/, '') : '';
    const workspace = isAbsolute(recorded) && !recorded.includes('\0') ? recorded : (named.get(e.name) ?? null);
    out.push({ short: e.name, dir, workspace, link: false });
  }
  return out.sort((a, b) => (a.short < b.short ? -1 : a.short > b.short ? 1 : 0));
}

/**
 * The projects whose recorded workspace is `workspace`, compared by realpath (a path that cannot be resolved is compared
 * as written). Never throws.
 * @public
 */
export async function projectsOfWorkspace(fs: FileSystemPort, projects: readonly GeminiProject[], workspace: string): Promise<GeminiProject[]> {
  const want = await realOr(fs, workspace);
  const out: GeminiProject[] = [];
  for (const p of projects) {
    if (p.workspace === null) continue;
    if (p.workspace === workspace || (await realOr(fs, p.workspace)) === want) out.push(p);
  }
  return out;
}

/**
 * The realpath of `path`, or `path` itself when it cannot be resolved. Never throws.
 * @public
 */
export async function realOr(fs: FileSystemPort, path: string): Promise<string> {
  return fs.realpath(path).catch(() => path);
}

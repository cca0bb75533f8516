import { join } from 'node:path';
import type { DirEntry, FileSystemPort } from '../../ports/fs.js';
import { isTelemetryOf, isTodoOf } from './artifact-names.js';
import type { ClaudeLocations } from './claude-locations.js';
import { jobDirsNaming } from './job-dirs.js';
import { sessionFilesNaming } from './session-files.js';
import { storeFindings, unknownStores } from './unknown-stores.js';

const dirLike = (e: DirEntry): boolean => e.kind === 'dir' || e.kind === 'symlink';

// A listing that cannot be read names nothing (as in the full scan, where it is a note, never an artifact).
async function list(fs: FileSystemPort, dir: string): Promise<DirEntry[]> {
  return fs.readdir(dir).catch(() => []);
}

// True when any path is there (links on the way followed, as the full scan's lstat does); a failed look finds nothing.
async function anyExists(fs: FileSystemPort, paths: readonly string[]): Promise<boolean> {
  const seen = await Promise.all(paths.map((p) => fs.lstat(p).then(() => true, () => false)));
  return seen.includes(true);
}

// The names Claude Code gives the conversation's own leftovers exactly: one lstat each.
function exactNames(loc: ClaudeLocations, id: string): string[] {
  return [join('session-env', id), join('file-history', id), join('tasks', id), join('debug', `${id}.txt`)].map((rel) => join(loc.config, rel));
}

// The key dirs of every projects root (each root listed once).
async function keyDirs(fs: FileSystemPort, loc: ClaudeLocations): Promise<string[]> {
  const keys = await Promise.all(loc.projects.map(async (root) => (await list(fs, root)).filter(dirLike).map((k) => join(root, k.name))));
  return keys.flat();
}

// A dir whose entries only a listing can match (`todos/<id>-*.json`, `telemetry/<p>.<id>.<r>.json`): one readdir each.
async function listed(fs: FileSystemPort, dir: string, mine: (name: string) => boolean): Promise<boolean> {
  const names = (await list(fs, dir)).filter((e) => mine(e.name)).map((e) => join(dir, e.name));
  return names.length > 0 && anyExists(fs, names);
}

// `<tmp>/claude-<uid>/<key>/<id>/` under each temp root (every user's `claude-*` dir, as the full scan looks).
async function tmpDirs(fs: FileSystemPort, loc: ClaudeLocations, id: string): Promise<boolean> {
  const owners = await Promise.all(
    loc.tmpRoots.map(async (r) => (await list(fs, r)).filter((e) => dirLike(e) && e.name.startsWith('claude-')).map((e) => join(r, e.name))),
  );
  const keys = await Promise.all(owners.flat().map(async (o) => (await list(fs, o)).filter(dirLike).map((k) => join(o, k.name, id))));
  return anyExists(fs, keys.flat());
}

/**
 * Whether Claude has anything of the (canonical) id to purge — exactly what `hasArtifacts` counts, from the least work
 * that tells: first the transcript `<key>/<id>.jsonl` in each key dir (the projects roots listed once), then only when it
 * is not there everything else at once — the names the id gives exactly (`<key>/<id>/`, `session-env/`, `file-history/`,
 * `tasks/`, `debug/`: one lstat each) and the places a name alone cannot reach, each once: one readdir of `todos/` and of
 * `telemetry/` (the id is a prefix, or inside the name), the temp roots' `claude-*` dirs, the job states and
 * live-session files that name it, and the unknown stores. Never rejects.
 * @public
 */
export async function claudeOwns(fs: FileSystemPort, loc: ClaudeLocations, id: string): Promise<boolean> {
  const keys = await keyDirs(fs, loc);
  // The transcript first: it is what a conversation of Claude's nearly always has.
  if (await anyExists(fs, keys.map((k) => join(k, `${id}.jsonl`)))) return true;
  const found = await Promise.all([
    anyExists(fs, [...keys.map((k) => join(k, id)), ...exactNames(loc, id)]),
    listed(fs, join(loc.config, 'todos'), (n) => isTodoOf(n, id)),
    listed(fs, join(loc.config, 'telemetry'), (n) => isTelemetryOf(n, id)),
    tmpDirs(fs, loc, id),
    jobDirsNaming(fs, join(loc.config, 'jobs'), id).then((j) => j.dirs.length > 0),
    sessionFilesNaming(fs, join(loc.config, 'sessions'), id).then((s) => s.length > 0),
    unknownStores(fs, loc.config).then(async (dbs) => dbs.length > 0 && (await storeFindings(fs, dbs, id)).rows.length > 0),
  ]);
  return found.includes(true);
}

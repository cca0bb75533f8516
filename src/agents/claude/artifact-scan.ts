import { join } from 'node:path';
import { describeError, isPortError } from '../../errors.js';
import type { DirEntry, FileSystemPort } from '../../ports/fs.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { isTelemetryOf, isTodoOf } from './artifact-names.js';
import type { ClaudeLocations } from './claude-locations.js';
import { jobDirsNaming } from './job-dirs.js';
import { type ClaudeSessionFile, sessionFilesNaming } from './session-files.js';
import { storeFindings, unknownStores } from './unknown-stores.js';
import { sessionCompanions } from './session-companions.js';

/**
 * Everything of one conversation a scan found, each path with the root it was found under.
 * @public
 */
export interface ClaudeArtifactScan {
  /** Per-conversation paths for confined removal, in removal order: tmp dirs, config dirs and files, project dirs. */
  items: ArtifactPath[];
  /** Background-job dirs whose `state.json` names the id (emptied with `state.json` last). */
  jobs: ArtifactPath[];
  /** `projects/<key>/<id>.jsonl` in any key dir (removed after everything it ties together). */
  transcripts: ArtifactPath[];
  /** `sessions/<pid>.json` files naming the id (removed last, and only when stale), each with its key and socket files. */
  sessions: Array<ArtifactPath & { file: ClaudeSessionFile; companions: ArtifactPath[] }>;
  /** Unknown stores (SQLite files) having rows that name the id. */
  stores: string[];
  /** Rows of unknown stores naming the id (kind `rows`). */
  storeRows: Artifact[];
  /** Why a purge must remove nothing (an unknown store naming the id, a store or job state that cannot be read). */
  refusals: LeftArtifact[];
  /** Listings that could not be read (what they hold is unknown), with the reason. */
  notes: LeftArtifact[];
}

type Lister = (dir: string) => Promise<DirEntry[]>;

// A missing dir lists nothing; any other failure is noted (unless `quiet`: other users' /tmp/claude-<uid> dirs are 0700).
function lister(fs: FileSystemPort, notes: LeftArtifact[]): (quiet: boolean) => Lister {
  return (quiet) => async (dir) => {
    try {
      return await fs.readdir(dir);
    } catch (err) {
      if (!quiet && !isPortError(err, 'NotFound') && !isPortError(err, 'NotADirectory')) {
        notes.push({ kind: 'dir', path: dir, reason: `unreadable: ${describeError(err)}` });
      }
      return [];
    }
  };
}

const dirLike = (e: DirEntry): boolean => e.kind === 'dir' || e.kind === 'symlink';

// The candidates that exist (links on the way followed: what lies behind a linked dir counts); one that cannot be looked at
// (a dir on its way unreadable) is noted rather than taken for absent.
async function existing(fs: FileSystemPort, items: readonly ArtifactPath[], notes: LeftArtifact[]): Promise<ArtifactPath[]> {
  const seen = await Promise.all(
    items.map((i) =>
      fs.lstat(i.path).then(
        () => true,
        (err: unknown) => {
          if (!isPortError(err, 'NotFound') && !isPortError(err, 'NotADirectory')) notes.push({ kind: 'file', path: i.path, reason: `unreadable: ${describeError(err)}` });
          return false;
        },
      ),
    ),
  );
  return items.filter((_, n) => seen[n] === true);
}

async function tmpItems(list: (quiet: boolean) => Lister, tmpRoot: string, id: string): Promise<ArtifactPath[]> {
  const owners = (await list(true)(tmpRoot)).filter((e) => dirLike(e) && e.name.startsWith('claude-'));
  const nested = await Promise.all(
    owners.map(async (o) => (await list(true)(join(tmpRoot, o.name))).filter(dirLike).map((k) => ({ root: tmpRoot, path: join(tmpRoot, o.name, k.name, id) }))),
  );
  return nested.flat();
}

async function projectItems(list: Lister, root: string, id: string): Promise<{ dirs: ArtifactPath[]; transcripts: ArtifactPath[] }> {
  const keys = (await list(root)).filter(dirLike);
  return {
    dirs: keys.map((k) => ({ root, path: join(root, k.name, id) })),
    transcripts: keys.map((k) => ({ root, path: join(root, k.name, `${id}.jsonl`) })),
  };
}

/**
 * Finds every artifact of the (canonical) id under Claude's locations; only what exists is returned. Never rejects.
 * @public
 */
export async function scanClaudeArtifacts(fs: FileSystemPort, loc: ClaudeLocations, id: string): Promise<ClaudeArtifactScan> {
  const notes: LeftArtifact[] = [];
  const list = lister(fs, notes);
  const cfg = (rel: string): ArtifactPath => ({ root: loc.config, path: join(loc.config, rel) });
  const [tmp, todos, telemetry, projects, jobs, sessions, stores] = await Promise.all([
    Promise.all(loc.tmpRoots.map((r) => tmpItems(list, r, id))),
    list(false)(join(loc.config, 'todos')),
    list(false)(join(loc.config, 'telemetry')),
    Promise.all(loc.projects.map((r) => projectItems(list(false), r, id))),
    jobDirsNaming(fs, join(loc.config, 'jobs'), id),
    sessionFilesNaming(fs, join(loc.config, 'sessions'), id),
    unknownStores(fs, loc.config).then((dbs) => storeFindings(fs, dbs, id)),
  ]);
  const candidates: ArtifactPath[] = [
    ...tmp.flat(),
    cfg(join('session-env', id)),
    cfg(join('file-history', id)),
    cfg(join('tasks', id)),
    ...todos.filter((e) => isTodoOf(e.name, id)).map((e) => cfg(join('todos', e.name))),
    cfg(join('debug', `${id}.txt`)),
    ...telemetry.filter((e) => isTelemetryOf(e.name, id)).map((e) => cfg(join('telemetry', e.name))),
    ...projects.flatMap((p) => p.dirs),
  ];
  const [items, transcripts] = await Promise.all([existing(fs, candidates, notes), existing(fs, projects.flatMap((p) => p.transcripts), notes)]);
  const refusals: LeftArtifact[] = [
    ...stores.stores.map((db): LeftArtifact => ({ kind: 'file', path: db, reason: 'unknown layout: refusing to purge' })),
    ...stores.unreadable.map((a): LeftArtifact => ({ ...a, reason: `${a.reason}; refusing to purge` })),
    ...jobs.unreadable.map((dir): LeftArtifact => ({ kind: 'file', path: join(dir, 'state.json'), reason: 'unreadable job state naming the id: refusing to purge' })),
  ];
  return {
    items,
    jobs: jobs.dirs.map((path) => ({ root: loc.config, path })),
    transcripts,
    sessions: await Promise.all(
      sessions.map(async (file) => ({ root: loc.config, path: file.path, file, companions: await sessionCompanions(fs, loc.config, loc.tmpRoots, file.pids) })),
    ),
    stores: stores.stores,
    storeRows: stores.rows,
    refusals,
    notes,
  };
}

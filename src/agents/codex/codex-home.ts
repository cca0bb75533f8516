import { isAbsolute, join, normalize } from 'node:path';

/**
 * Where one Codex home keeps things: the home itself (`CODEX_HOME`, else `<home>/.codex`), the rollout roots, and the
 * directories holding its SQLite files (`CODEX_SQLITE_HOME` when set, and the home).
 * @public
 */
export interface CodexHome {
  /** `CODEX_HOME`, else `<home>/.codex`. */
  home: string;
  /** `<home>/sessions` (rollouts by day) — a root of its own, so it may itself be a link. */
  sessions: string;
  /** `<home>/archived_sessions` (rollouts after `codex archive`) — a root of its own. */
  archived: string;
  /** `<home>/shell_snapshots` (one `<id>.<nanos>.sh` per process start; they hold the environment). */
  snapshots: string;
  /** `<home>/thread-writer-locks` (`<id>.lock`, flocked by a live writer). */
  locks: string;
  /** The directories whose `*.sqlite` files are Codex databases, without duplicates. */
  dbDirs: string[];
}

function absolute(value: string | undefined): string | null {
  if (value === undefined || value === '' || value.includes('\0') || !isAbsolute(value)) return null;
  return normalize(value).replace(/(.)\/+$/, '$1');
}

/**
 * The Codex home of a context's environment; a relative or empty `CODEX_HOME` is ignored like an unset one.
 * @public
 */
export function codexHome(env: Readonly<Record<string, string | undefined>>, homeDir: string): CodexHome {
  const home = absolute(env['CODEX_HOME']) ?? join(homeDir, '.codex');
  const sqlite = absolute(env['CODEX_SQLITE_HOME']);
  return {
    home,
    sessions: join(home, 'sessions'),
    archived: join(home, 'archived_sessions'),
    snapshots: join(home, 'shell_snapshots'),
    locks: join(home, 'thread-writer-locks'),
    dbDirs: sqlite === null || sqlite === home ? [home] : [sqlite, home],
  };
}

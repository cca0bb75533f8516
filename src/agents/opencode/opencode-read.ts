import { isAbsolute, normalize } from 'node:path';
import type Database from 'better-sqlite3';
import type { Ports } from '../../ports/index.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { rememberedProbe } from '../../sqlite/remembered-probe.js';
import { provingDirLook } from '../../validation/home-proof.js';
import type { HomeDiscoveryContext } from '../types.js';
import { type OpencodeLayout, OpencodeLayoutCache } from './opencode-layout.js';
import { trimDir } from './opencode-sessions.js';
import type { SessionVerdict } from './opencode-verify-many.js';

/**
 * How an OpenCode store reads its database and resolves workspaces (one per store: its layout memory lives as long as it).
 */
export interface OpencodeReader {
  /**
   * Reads the database read-only; a missing or unreadable one gives `fallback`. Its layout is remembered under the lstats
   * of the file and its sidecars once settled by the ports' clock. With `proving` (a discover or verify's context), the
   * opener's look at the database's directory, when that lies inside the home, proves the home a directory.
   */
  read<T>(dbPath: string, fallback: T, fn: (db: Database.Database, layout: () => OpencodeLayout) => T | Promise<T>, proving?: HomeDiscoveryContext): Promise<T>;
  /** The workspace as given and as resolved (empty for one no path can match). */
  workspaceDirs(ctx: HomeDiscoveryContext): Promise<string[]>;
  /**
   * The verdicts settled: a top-level row naming another directory verifies when that is the workspace's realpath, each
   * distinct workspace resolved once (and only when some row needs it).
   */
  settle(verdicts: readonly SessionVerdict[], given: ReadonlyArray<string | null>): Promise<boolean[]>;
}

/** The workspace as given, normalised (`session.directory` is the cwd OpenCode saw); null for one no path can match. */
export function givenWorkspace(workspace: string): string | null {
  return !isAbsolute(workspace) || workspace.includes('\0') ? null : trimDir(normalize(workspace));
}

/** The reader of one OpenCode store over `ports`. */
export function opencodeReader(ports: Ports): OpencodeReader {
  const layouts = new OpencodeLayoutCache();
  // The ports' clock: a database's layout is remembered only once its file and sidecars have settled by it.
  const now = (): number => ports.clock.now();
  // The workspace's realpath (the given spelling when it cannot be resolved).
  const real = async (given: string): Promise<string> => trimDir(await ports.fs.realpath(given).catch(() => given));

  return {
    async read(dbPath, fallback, fn, proving) {
      const dirLook = proving === undefined ? undefined : provingDirLook(ports.fs, proving)(dbPath);
      try {
        // A missing database rejects (NotFound) like any unreadable one, and one that is not a regular file is refused: no separate look first.
        return await withReadonlyDb(dbPath, { fs: ports.fs, requireFile: true, dirLook }, (h) =>
          fn(h.db, () => rememberedProbe(ports.fs, `opencode-layout\0${dbPath}`, h, now, () => layouts.layoutOf(h.db, dbPath))),
        );
      } catch {
        return fallback;
      }
    },
    async workspaceDirs(ctx) {
      const given = givenWorkspace(ctx.workspace);
      return given === null ? [] : [...new Set([given, await real(given)])];
    },
    async settle(verdicts, given) {
      const reals = new Map<string, Promise<string>>();
      return Promise.all(
        verdicts.map(async (v, i) => {
          const g = given[i];
          if (typeof v === 'boolean' || g === undefined || g === null) return v === true;
          let r = reals.get(g);
          if (r === undefined) reals.set(g, (r = real(g)));
          return v.dirs.includes(await r);
        }),
      );
    },
  };
}

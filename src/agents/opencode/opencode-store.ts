import type { AgentDefinition } from '../contract/agent-definition.js';
import { normalize } from 'node:path';
import type { Ports } from '../../ports/index.js';
import { agentEnv } from '../common/agent-env.js';
import { findInUseHolders } from '../common/in-use.js';
import type { AgentStore } from '../contract/agent-store.js';
import { pathPurge } from '../contract/path-purge.js';
import type { HomeDiscoveryContext, InUseHolder } from '../types.js';
import { legacySessionRecords } from './legacy-storage.js';
import { findOpencodeBinary } from './opencode-binary.js';
import { callerOpencodeSession, canUseSession, sessionReach } from './opencode-holders.js';
import { inspectOpencodeHome } from './opencode-inspect.js';
import { locateOpencode, opencodeHomeGate } from './opencode-locate.js';
import { opencodeLocatorOf } from './opencode-locator.js';
import { opencodeLogMentions } from './opencode-mentions.js';
import { givenWorkspace, opencodeReader } from './opencode-read.js';
import { isOpencodeService } from './opencode-service.js';
import { opencodePurge } from './opencode-store-purge.js';
import { type OpencodeSessionRow, sessionRows, trimDir, workspaceSessions } from './opencode-sessions.js';
import { type SessionQueryOf, type SessionVerdict, sessionVerdicts } from './opencode-verify-many.js';

/**
 * The OpenCode store over `ports` (post-discovered, ids `ses_…`): sessions in the shared `opencode.db` — the 1.x `session`
 * table (OpenCode 1.18) and/or the 2.x `session_v2` table — plus the shared log and, in old homes, legacy JSON storage. A
 * database with neither table is an unknown layout: discovery finds nothing there and a purge refuses.
 */
export function opencodeStore(ports: Ports, def: AgentDefinition): AgentStore {
  const { fs, proc } = ports;
  // A successful database lookup is kept per (binary, HOME, XDG_DATA_HOME) for the life of the ports.
  const locator = opencodeLocatorOf(fs, proc);
  const locate = (ctx: HomeDiscoveryContext) => locateOpencode(ports, ctx);
  const reader = opencodeReader(ports);
  const { read } = reader;
  const purge = opencodePurge(ports, locate);

  /** OpenCode's shared log files (`<data>/log/*.log`) whose text names the id; never removed. */
  const mentions = async (id: string, ctx: HomeDiscoveryContext) => {
    try {
      const loc = await locate(ctx);
      return loc === null ? [] : (await opencodeLogMentions(fs, loc.dataDir, id)).map((path) => ({ kind: 'file' as const, path }));
    } catch {
      return [];
    }
  };
  const paths = pathPurge(fs, { agent: 'opencode', artifactPaths: purge.artifactPaths, dbRows: purge.dbRows, purgeRefusals: purge.purgeRefusals, mentions, purgeNotes: purge.purgeNotes });

  return {
    /** Top-level (not sub-agent) sessions of this workspace's directory, in either schema, at or after `ctx.epoch`; newest first. */
    async discover(ctx) {
      // The workspace resolves while the database is looked at and opened.
      const spellings = reader.workspaceDirs(ctx);
      const loc = await locate(ctx);
      if (loc === null) return [];
      const since = ctx.epoch === undefined || !Number.isFinite(ctx.epoch) ? undefined : ctx.epoch * 1000;
      return read(loc.dbPath, [], async (db, layout) => {
        const dirs = await spellings;
        return dirs.length === 0 ? [] : workspaceSessions(db, layout(), dirs, since);
      }, ctx);
    },

    /**
     * A top-level session row of each id whose directory is its workspace (a child, sub-agent, session is never the row's
     * conversation: its parent is); the database located, opened and its layout probed once for the batch, the ids looked
     * up in one statement per table, each distinct workspace resolved at most once (and only when a row names another
     * directory). Both modes ask the same (the caller excludes ids other rows record).
     */
    async verifyMany(queries, ctx) {
      const batch: SessionQueryOf[] = queries.map((q) => ({ id: q.id, given: givenWorkspace(q.workspace) }));
      if (batch.every((b) => b.given === null)) return queries.map(() => false);
      const loc = await locate(ctx).catch(() => null);
      if (loc === null) return queries.map(() => false);
      const verdicts = await read(loc.dbPath, queries.map((): SessionVerdict => false), (db, layout) => sessionVerdicts(db, layout(), batch), ctx);
      return reader.settle(verdicts, batch.map((b) => b.given)).catch(() => queries.map(() => false));
    },

    /**
     * The live uses of the session: the shared rule (command lines, session variables, holders of the database and its
     * sidecars but the per-user service), with a holder of the shared database counted only when it can be using this
     * session — its command line names the id, or its cwd lies in a directory of the session's project (its directory,
     * the worktree, another checkout OpenCode ran in); when its cwd cannot be read (or the session's directory is unknown,
     * or it belongs to the `global` project) every holder counts (home-wide). And the opencode process whose tool shell
     * runs the caller (`OPENCODE_PID`), when it can be using the session.
     */
    async holders(id, ctx) {
      const held = await locate(ctx);
      const all = await findInUseHolders(proc, {
        agent: def.name,
        sessionEnvVars: def.sessionEnvVars,
        id,
        heldPaths: held === null ? [] : ['', '-wal', '-shm', '-journal'].map((s) => held.dbPath + s),
        ignoreHolder: (_holder, p) => isOpencodeService(p),
      });
      const env = proc.env();
      if (!all.some((h) => h.signal === 'open-file') && (env['OPENCODE_PID'] ?? '') === '') return all;
      const loc = await locate(ctx);
      const dirs = loc === null ? [] : await read(loc.dbPath, [] as string[], (db) => sessionReach(db, id));
      const out: InUseHolder[] = [];
      for (const h of all) if (h.signal !== 'open-file' || (await canUseSession(proc, h, id, dirs))) out.push(h);
      for (const h of await callerOpencodeSession(proc, id, dirs)) if (!out.some((o) => o.pid === h.pid)) out.push(h);
      return out;
    },

    planPurge: paths.planPurge,
    executePurge: purge.executePurge,
    residual: paths.residual,
    mentions,
    purgeNotes: purge.purgeNotes,

    /**
     * A read-only look at the OpenCode data dir (never runs the CLI): layout, versions, session counts, problems; the
     * database `debug paths` named when another call on these ports already asked it, else the default one.
     */
    async inspect(ctx) {
      const env = await agentEnv(fs, proc, ctx);
      return inspectOpencodeHome(fs, ctx.home, env, (await locator.keptDbPath(ctx.home, env)) ?? undefined);
    },

    /** Has the home any artifact of the id: a session row by id answers at once; otherwise every place is looked at (orphaned rows and legacy files count). */
    async owns(id, ctx) {
      // A session row of the id is one of the rows the residual counts (every layout's session id column is looked at).
      const rowAt = (dbPath: string): Promise<boolean> => read(dbPath, false, (db, layout) => sessionRows(db, layout(), id).length > 0);
      // The default database is read while the locator looks for the executable (and asks `debug paths`, once per key); its
      // answer counts only when the locator names that same file, and it is always awaited.
      const env = await agentEnv(fs, proc, ctx);
      const guess = locator.defaultDbPath(ctx.home, env);
      const early = guess === null ? null : rowAt(guess);
      const loc = await locator.locate(ctx.home, env, opencodeHomeGate(fs, ctx)).catch(() => null);
      const found = loc === null ? false : loc.dbPath === guess && early !== null ? await early : await rowAt(loc.dbPath);
      await early;
      if (found) return true;
      return (await paths.residual(id, ctx)).length > 0;
    },

    /**
     * Asked when the session no longer verifies in the workspace: the workspace what is left of it records. While session
     * rows of the id are left (a purge stopped part-way through the rows, e.g. `opencode session delete` killed with it),
     * their `directory`; once none is (a purge stopped past its row delete), its legacy session files' (`directory`; the
     * file goes last). `here` when every record names the workspace (as given or resolved), `elsewhere` when one names
     * another, `unrecorded` when none names any. Null when the database cannot be read, or for a child session.
     */
    async remainsBelonging(id, ctx) {
      const loc = await locate(ctx).catch(() => null);
      if (loc === null) return null;
      const rows = await read(loc.dbPath, null as OpencodeSessionRow[] | null, (db, layout) => sessionRows(db, layout(), id));
      if (rows === null) return null;
      const legacy = rows.length > 0 ? { child: rows.some((r) => r.parent !== null), directories: rows.map((r) => r.directory) } : await legacySessionRecords(fs, loc.dataDir, id);
      const recorded = legacy.directories.filter((d): d is string => d !== null && d !== '').map((d) => trimDir(normalize(d)));
      if (legacy.child) return null;
      if (recorded.length === 0) return 'unrecorded';
      const here = await reader.workspaceDirs(ctx);
      return recorded.every((d) => here.includes(d)) ? 'here' : 'elsewhere';
    },

    /** OpenCode can start when an `opencode` executable is on the agent PATH or under `<home>/.opencode/bin`. */
    async preflight(ctx) {
      const env = await agentEnv(fs, proc, ctx);
      const pathVar = 'PATH' in env ? env['PATH'] : proc.env()['PATH'];
      const ok = (await findOpencodeBinary(fs, pathVar, ctx.home)) !== null;
      return { ok, exitCode: ok ? 0 : 1 };
    },
  };
}

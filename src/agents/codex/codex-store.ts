import type { AgentDefinition } from '../contract/agent-definition.js';
import { describeError } from '../../errors.js';
import type { Ports } from '../../ports/index.js';
import type { Artifact } from '../../purge/artifact.js';
import { findInUseHolders } from '../common/in-use.js';
import type { AgentStore, StoreVerifyQuery } from '../contract/agent-store.js';
import type { HomeDiscoveryContext, StoreReport } from '../types.js';
import { discoverThreads } from './codex-discover.js';
import { inspectCodexHome } from './codex-inspect.js';
import { codexOwns } from './codex-owns.js';
import { codexPurge } from './codex-purge.js';
import { codexRemainsBelonging } from './codex-remains.js';
import { codexScope } from './codex-scope.js';
import { verifyThread } from './codex-verify.js';
import { codexVerifyMany } from './codex-verify-many.js';
import { rowsNaming } from './rows-naming.js';
import { sharedMentions } from './shared-mentions.js';
import { workspaceCwds } from './workspace-cwds.js';

/**
 * The Codex CLI's store over `ports` (post-discovered UUID v7 thread ids): rollouts
 * `sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl` and `archived_sessions/`, the `threads` table of `state_<N>.sqlite` and
 * every other Codex database's thread columns, `shell_snapshots/<id>.*` (they hold the environment's secrets) and
 * `thread-writer-locks/<id>.lock`. On a state database of an unknown layout, discovery falls back to the rollouts and a
 * purge removes nothing, naming the database in the residual.
 */
export function codexStore(ports: Ports, def: AgentDefinition): AgentStore {
  const fs = ports.fs;
  const scope = codexScope(ports);

  // Rows of shared tables and shared files (`history.jsonl`: prompts by `session_id`; `session_index.jsonl`: titles by
  // `id`; the TUI log) that mention the id or a sub-agent thread it spawned; never removed or rewritten.
  const mentions = async (c: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    try {
      const s = await scope.survey(c, ctx);
      const out: Artifact[] = [];
      for (const k of [c, ...(await scope.descendants(c, ctx, s))]) {
        const { rows } = await rowsNaming(fs, s, k, (i) => i.columns.mentions);
        for (const a of [...rows, ...(await sharedMentions(fs, s.home, k))]) {
          // A shared file naming the parent and a child is one mention.
          if (a.kind === 'rows' || !out.some((o) => o.kind !== 'rows' && o.path === a.path)) out.push(a);
        }
      }
      return out;
    } catch {
      return [];
    }
  };
  const purge = codexPurge(scope, mentions);

  // One id, as `verifyArtifact` always read it: the workspace's realpath resolving while the home is listed.
  const verifyOne = async (q: StoreVerifyQuery, ctx: HomeDiscoveryContext, strict: boolean): Promise<boolean> => {
    try {
      const cwds = workspaceCwds(fs, q.workspace);
      cwds.catch(() => undefined);
      return await verifyThread(fs, await scope.storeHome(ctx), cwds, q.id, strict, scope.now);
    } catch {
      return false;
    }
  };

  return {
    // Top-level thread ids of this workspace's `cwd` (archived ones included, sub-agent threads never) from the state
    // databases (each proven by its rollout, found by id under the home when the recorded path is stale), scanning
    // rollouts only when no database lists them all; newest first, active at or after `ctx.epoch`; none on a failure.
    async discover(ctx) {
      try {
        const since = ctx.epoch !== undefined && Number.isFinite(ctx.epoch) ? ctx.epoch * 1000 : undefined;
        // The workspace's realpath resolves while the home is listed (a rejection is awaited, hence caught, below).
        const cwds = workspaceCwds(fs, ctx.workspace);
        cwds.catch(() => undefined);
        return (await discoverThreads(fs, await scope.storeHome(ctx), cwds, since, scope.now)).map((d) => d.id);
      } catch {
        return [];
      }
    },
    // `verify` mode: the state DBs listed, opened and probed once for the batch, one lookup by id each (a workspace
    // resolved only for an id no row recording it as given answers). `discover` mode (stricter: a trusted DB rules out an
    // id it lacks) checks each id as `verifyArtifact` did.
    async verifyMany(queries, ctx, mode) {
      if (mode === 'discover') return Promise.all(queries.map((q) => verifyOne(q, ctx, true)));
      return codexVerifyMany(fs, () => scope.storeHome(ctx), queries, ctx.workspace, (id) => id, scope.now);
    },
    // The rollouts and the writer locks of the thread and of its sub-agent threads: a live Codex flocks the lock and
    // keeps the rollout open; the databases are shared by every thread, so a holder of them proves nothing about one.
    async holders(c, ctx) {
      const s = await scope.survey(c, ctx);
      const kids = await Promise.all((await scope.descendants(c, ctx, s)).map((k) => scope.survey(k, ctx)));
      const heldPaths = [s, ...kids].flatMap((x) => [...x.artifacts.rollouts.map((r) => r.path), x.artifacts.lock.path]);
      return findInUseHolders(ports.proc, { agent: def.name, sessionEnvVars: def.sessionEnvVars, id: c, heldPaths });
    },
    // plan, execute, residual, and what the last purge of the id could not guarantee (a `-wal` another connection kept
    // busy still holds the deleted text).
    ...purge,
    mentions,
    // Has the home any artifact of the id: by-id lookups (rows, lock, snapshots, the rollout in its own date dirs),
    // looking everywhere only when they cannot tell.
    async owns(c, ctx) {
      const quick = await codexOwns(fs, await scope.home(ctx), c).catch(() => null);
      // No row and no file: old copies of deleted rows (a purge interrupted after its delete) are still the id's own.
      if (quick === false) return (await scope.deadCopies(await scope.survey(c, ctx), c)).length > 0;
      return quick ?? (await purge.residual(c, ctx)).length > 0;
    },
    // Once its rollout is gone (a purge stopped part-way), the workspace its `threads` rows record; null while a rollout is there.
    async remainsBelonging(c, ctx) {
      return codexRemainsBelonging(fs, await scope.home(ctx), c, ctx.workspace);
    },
    // A read-only look at the Codex home: state databases' versions and layouts, thread and rollout counts, problems.
    async inspect(ctx): Promise<StoreReport> {
      const home = await scope.home(ctx);
      return inspectCodexHome(fs, home).catch((err: unknown) => ({ agent: 'codex' as const, presence: 'present' as const, root: home.home, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`], readable: false }));
    },
  };
}

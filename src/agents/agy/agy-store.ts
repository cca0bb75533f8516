import type { AgentDefinition } from '../contract/agent-definition.js';
import { join } from 'node:path';
import type { Ports } from '../../ports/index.js';
import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import { agentEnv } from '../common/agent-env.js';
import { type ArtifactPath, leftArtifacts, pathArtifact, removeArtifacts } from '../common/artifacts.js';
import { findInUseHolders } from '../common/in-use.js';
import type { AgentStore, StorePurgeOutcome } from '../contract/agent-store.js';
import { pathPurge } from '../contract/path-purge.js';
import type { HomeDiscoveryContext } from '../types.js';
import { captureAgy } from './agy-capture.js';
import { canonicalAgyId } from './agy-ids.js';
import { inspectAgyStores } from './agy-inspect.js';
import { agyMentions } from './agy-mentions.js';
import { type AgyPaths, agyHeldPaths, agyPaths } from './agy-paths.js';
import { type AgyPurgePlan, planAgyPurge, sharedAgyPurgePlan, withSharedAgyPlans } from './agy-purge-plan.js';
import { agySummaryRows, deleteAgySummaryRows } from './agy-summaries.js';
import { agyVerifyMany } from './agy-verify-many.js';
import { agyRemainsBelonging, discoverAgy } from './agy-workspace.js';

const WAL_NOTE =
  'conversation_summaries.db is shared by every agy conversation: its rows are deleted with secure_delete, but older page images may stay in its -wal until agy checkpoints it';

/**
 * The agy store over `ports`: each conversation's database and files under `<GEMINI_HOME>/antigravity-cli/`, its
 * subagents, its ACP copy, the shared summaries index (see the definition). Every id is canonical.
 */
export function agyStore(ports: Ports, def: AgentDefinition): AgentStore {
  const { fs, proc } = ports;
  // The ports' clock: what a conversation's files say is remembered under their lstats only once they have settled by it.
  const now = (): number => ports.clock.now();
  // The agy roots of this context (GEMINI_HOME from the agent's environment, see agentEnv).
  const paths = async (ctx: HomeDiscoveryContext): Promise<AgyPaths> => agyPaths(ctx.home, await agentEnv(fs, proc, ctx));

  // The database and sidecars (the CLI's and the ACP server's), the presence lock, and the brain dir (a shell cd'd into
  // brain/<id>/, or a file open below it, holds the conversation).
  const heldPaths = async (id: string, ctx: HomeDiscoveryContext): Promise<string[]> => {
    const p = await paths(ctx);
    return [...agyHeldPaths(p, id), join(p.brain, id)];
  };
  const holders = async (id: string, ctx: HomeDiscoveryContext) => findInUseHolders(proc, { agent: def.name, sessionEnvVars: def.sessionEnvVars, id, heldPaths: await heldPaths(id, ctx) });
  // A holder that appeared (or stayed) since the caller's gate keeps what it uses; a failed check too.
  const busy = async (id: string, ctx: HomeDiscoveryContext): Promise<boolean> => {
    const c = canonicalAgyId(id);
    if (c === null) return false;
    try {
      return (await holders(c, ctx)).length > 0;
    } catch {
      return true;
    }
  };

  // The entries of a plan that are not understood, each of its lstat kind with the reason.
  const refusals = (plan: AgyPurgePlan): Promise<LeftArtifact[]> =>
    Promise.all(plan.unknown.map(async (u) => ({ ...((await pathArtifact(fs, u.path)) ?? { kind: 'file' as const, path: u.path }), reason: u.reason })));
  // The shared index's rows naming the id and its subagents (a failed look carries its reason).
  const dbRows = async (id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    const p = await paths(ctx);
    const rows = await agySummaryRows(fs, p.summariesDb, (await sharedAgyPurgePlan(fs, p, id)).ids);
    return [...rows.rows, ...(rows.failure === null ? [] : [rows.failure])];
  };
  // The shared index keeps older page images in its `-wal` until agy checkpoints it.
  const purgeNotes = async (id: string, ctx: HomeDiscoveryContext): Promise<string[]> => ((await dbRows(id, ctx)).some((r) => r.kind === 'rows') ? [WAL_NOTE] : []);
  // The shared prompt history, the last-conversation cache and a fork's reference when they still name the id (never rewritten by a purge).
  const mentions = async (id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    try {
      return await agyMentions(fs, await paths(ctx), id);
    } catch {
      return [];
    }
  };
  // What a preview lists: every own path of the id and its subagents, then the presence locks, in removal order; the
  // index rows; each entry not understood refuses it all.
  const preview = pathPurge(fs, {
    agent: def.name,
    async artifactPaths(id, ctx): Promise<ArtifactPath[]> {
      const plan = await sharedAgyPurgePlan(fs, await paths(ctx), id);
      return [...plan.paths, ...plan.locks.map((l) => l.lock)];
    },
    dbRows,
    purgeRefusals: async (id, ctx) => refusals(await sharedAgyPurgePlan(fs, await paths(ctx), id)),
    mentions,
    purgeNotes,
  });

  // What is left: `own` (paths, rows, entries not understood) and the index's read failure, if any.
  const residualParts = async (id: string, ctx: HomeDiscoveryContext): Promise<{ own: LeftArtifact[]; doubts: LeftArtifact[] }> => {
    try {
      const p = await paths(ctx);
      const plan = await planAgyPurge(fs, p, id);
      const files = await leftArtifacts(fs, [...plan.paths, ...plan.locks.map((l) => l.lock)]);
      const rows = await agySummaryRows(fs, p.summariesDb, plan.ids);
      return { own: [...files, ...rows.rows.map(asLeft), ...(await refusals(plan))], doubts: rows.failure === null ? [] : [rows.failure] };
    } catch {
      return { own: [], doubts: [] };
    }
  };

  return {
    // Top-level conversations whose own database (or ACP `.meta`) records this workspace, newest first; the cache only adds hints.
    discover: async (ctx) => discoverAgy(fs, await paths(ctx), ctx),
    // The database opens and its own workspace record (else the cache's hint) does not place it only in other workspaces;
    // `discover` mode also needs it placed here and refuses subagents. Each conversation read once, the cache at most once.
    verifyMany: async (queries, ctx, mode) => agyVerifyMany(fs, await paths(ctx), queries, mode, now),
    // Once neither database of it opens (a purge stopped part-way), the workspace its `.meta` or the cache records.
    remainsBelonging: async (id, ctx) => agyRemainsBelonging(fs, await paths(ctx), id, ctx.workspace),
    // The one cached candidate whose presence lock or database the row's pane process (or a descendant) holds open.
    capture: (row, ctx, self) =>
      captureAgy(
        { proc, canonical: canonicalAgyId, discover: (c) => self.discover(c), verify: (i, c) => self.verifyArtifact(i, c, 'discover'), heldPaths },
        row,
        ctx,
      ),
    holders,
    // The preview, with the conversation's family planned once for every part of it.
    planPurge: (id, ctx) => withSharedAgyPlans(() => preview.planPurge(id, ctx)),
    /**
     * Removes the conversation and its subagents (any depth; one another live process uses stays, with its subtree): the
     * shared index's rows naming them, then each one's files, then the presence locks — each only when a fresh in-use
     * check finds nobody, the id's last. Removes nothing when an entry naming any of them is not understood. Never throws.
     */
    async executePurge(id, ctx): Promise<StorePurgeOutcome> {
      try {
        const p = await paths(ctx);
        const plan = await planAgyPurge(fs, p, id, (child) => busy(child, ctx));
        if (plan.unknown.length > 0) return { removed: [] };
        const rows = await deleteAgySummaryRows(fs, p.summariesDb, plan.ids);
        const done = await removeArtifacts(fs, plan.paths);
        const removed: Artifact[] = [...rows.rows, ...done.purged];
        for (const { id: owner, lock } of plan.locks) {
          if (!(await busy(owner, ctx))) removed.push(...(await removeArtifacts(fs, [lock])).purged);
        }
        return { removed, rowFailures: rows.failure === null ? [] : [rows.failure] };
      } catch {
        return { removed: [] };
      }
    },
    // What is still there of the conversation and its subagents, the index's rows naming them, each entry not
    // understood with the refusal, and why the index could not be read. The last purge's failed delete follows while rows
    // remain (residual-after.ts); a read failure it also met is then the read's, said once.
    async residual(id, ctx) {
      const r = await residualParts(id, ctx);
      return [...r.own, ...r.doubts];
    },
    // True when anything of the conversation (or its subagents) is still there; a shared index it cannot read is no evidence.
    hasArtifacts: async (id, ctx) => (await residualParts(id, ctx)).own.length > 0,
    mentions,
    purgeNotes,
    // A read-only look at the agy CLI and ACP roots (never runs the CLI): conversations, the summaries index, problems.
    inspect: async (ctx) => inspectAgyStores(fs, await paths(ctx)),
  };
}

import { describeError } from '../../errors.js';
import { REMOVAL_REASONS } from '../../paths/removal-reasons.js';
import type { Ports } from '../../ports/index.js';
import { type Artifact, asLeft, formatArtifact, hasReason, type LeftArtifact } from '../../purge/artifact.js';
import { type ArtifactPath, leftArtifacts, planArtifactPaths, removeArtifacts } from '../common/artifacts.js';
import type { AdapterPurgePlan, HomeDiscoveryContext } from '../types.js';
import type { AgentStore, StorePurgeOutcome } from './agent-store.js';

/**
 * Where a conversation's artifacts are, for a store whose purge is "delete its database rows, then remove its paths":
 * the pieces {@link pathPurge} composes into `planPurge`, `executePurge` and `residual`. Every id is canonical.
 * @public
 */
export interface PathPurgeParts {
  /** The agent's name, for messages. */
  readonly agent: string;
  /** The conversation's own artifact paths, in removal order (key files before the file tying them to the id). */
  artifactPaths(id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]>;
  /** Database rows naming the id (kind `rows`); an entry carrying a `reason` is a database that could not be read. */
  dbRows?(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]>;
  /** Deletes the database rows naming the id; returns the rows deleted. */
  purgeDbRows?(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]>;
  /** Why a purge of the id would remove nothing at all (an unknown layout naming it …); empty when it may run. */
  purgeRefusals?(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]>;
  /** Shared files and rows that name the id and are never removed. */
  mentions?(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]>;
  /** What a person should know about a purge of the id that is no artifact. */
  purgeNotes?(id: string, ctx: HomeDiscoveryContext): Promise<string[]>;
}

const none = async (): Promise<never[]> => [];

/**
 * The purge of a store made of database rows and artifact paths: the plan lists the paths that exist and are confined (a
 * path behind a linked dir is refused) and the rows naming the id, everything refused when `purgeRefusals` gives a reason;
 * the execution deletes the rows, then removes the paths in order (a failed row delete is reported, never swallowed); the
 * residual lists the paths still on disk and the rows still on record.
 * @public
 */
export function pathPurge(fs: Ports['fs'], parts: PathPurgeParts): Pick<AgentStore, 'planPurge' | 'executePurge' | 'residual'> {
  const dbRows = parts.dbRows ?? none;
  return {
    async planPurge(id: string, ctx: HomeDiscoveryContext): Promise<AdapterPurgePlan> {
      const [paths, rows, refusals, mentions, notes] = await Promise.all([
        parts.artifactPaths(id, ctx).then((p) => planArtifactPaths(fs, p)),
        dbRows(id, ctx),
        (parts.purgeRefusals ?? none)(id, ctx),
        (parts.mentions ?? none)(id, ctx),
        (parts.purgeNotes ?? none)(id, ctx),
      ]);
      // A refusal the row look also reported is listed once.
      const said = new Set(refusals.map((r) => formatArtifact(r, { reason: true })));
      const problems = rows.filter(hasReason).filter((r) => !said.has(formatArtifact(r, { reason: true })));
      const own: Artifact[] = [...rows.filter((r) => !hasReason(r)), ...paths.artifacts];
      if (refusals.length === 0) return { artifacts: own, refused: [...paths.refused, ...problems], mentions, notes };
      // A refused purge removes nothing: every artifact is listed as kept, after the reasons.
      const kept = own.map((a) => ({ ...a, reason: 'kept: the purge of this conversation is refused' }));
      return { artifacts: [], refused: [...refusals, ...problems, ...paths.refused, ...kept], mentions, notes };
    },
    async executePurge(id: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome> {
      // Paths first: some are found through the rows the next step deletes.
      const paths = await parts.artifactPaths(id, ctx);
      let rowFailures: LeftArtifact[] = [];
      const rows = await (parts.purgeDbRows ?? none)(id, ctx).catch((err: unknown): Artifact[] => {
        rowFailures = [{ kind: 'dir', path: ctx.home, reason: `${parts.agent} database rows could not be deleted: ${describeError(err)}` }];
        return [];
      });
      const files = await removeArtifacts(fs, paths);
      return { removed: [...rows, ...files.purged], swapped: swappedPaths(files.residual), rowFailures };
    },
    async residual(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
      const files = await leftArtifacts(fs, await parts.artifactPaths(id, ctx));
      const rows = await dbRows(id, ctx).catch((err: unknown): Artifact[] => [
        { kind: 'dir', path: ctx.home, reason: `${parts.agent} database rows could not be checked: ${describeError(err)}` } as LeftArtifact,
      ]);
      return [...files, ...rows.map(asLeft)];
    },
  };
}

/** The paths a removal left because a directory was swapped under it. */
export function swappedPaths(left: readonly LeftArtifact[]): string[] {
  return left.flatMap((l) => (l.kind !== 'rows' && l.reason === REMOVAL_REASONS.swapped ? [l.path] : []));
}

import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import type { AdapterPurgePlan, CaptureResult, CaptureRow, HomeDiscoveryContext, InUseHolder, PreflightResult, RemainsBelonging, StoreReport } from '../types.js';

/**
 * One canonical id of a batch verification and the workspace it is checked against.
 * @public
 */
export interface StoreVerifyQuery {
  /** The canonical id (the definition's `ids.canonical` accepted it). */
  id: string;
  /** The workspace of the query (absolute). */
  workspace: string;
}

/**
 * What a store's own capture rule may ask of the adapter it belongs to (the checked public methods).
 * @public
 */
export interface CaptureSelf {
  /** The adapter's `discover`. */
  discover(ctx: HomeDiscoveryContext): Promise<string[]>;
  /** The adapter's `verifyArtifact`. */
  verifyArtifact(id: string, ctx: HomeDiscoveryContext, mode?: 'verify' | 'discover'): Promise<boolean>;
}

/**
 * What one execution of a purge did: what it removed, and what the report must say of what it left.
 * @public
 */
export interface StorePurgeOutcome {
  /** The artifacts removed, of the kind their lstat gave before removal. */
  removed: Artifact[];
  /** Paths a removal found swapped under it: the residual names the swap as their reason. */
  swapped?: readonly string[];
  /** Why a delete of the id's database rows failed: the residual lists these while rows of the id remain. */
  rowFailures?: readonly LeftArtifact[];
}

/**
 * Where one agent keeps its conversations, as the agent's definition opens it over a set of ports: every operation takes
 * canonical ids and a checked context (`home` absolute and a directory, `workspace` absolute), and may answer in batches.
 * `createAdapter` adds everything else — the argument checks, id canonicalisation, `verifyArtifact`,
 * `conversationInUse`, the capture rule, the purge report — so a store holds only what is particular to its agent.
 * A read that fails may reject: `createAdapter` turns a rejection into the documented "nothing" answer of each method.
 * @public
 */
export interface AgentStore {
  /** Candidate ids of conversations in `ctx.workspace`, newest first (at or after `ctx.epoch` when given). */
  discover(ctx: HomeDiscoveryContext): Promise<string[]>;
  /**
   * For each query, in order, does the id have a conversation of its workspace on disk. `discover` mode is stricter
   * where the agent knows more (records' cwd, placement …); ids other rows record are already excluded by the caller.
   */
  verifyMany(queries: readonly StoreVerifyQuery[], ctx: HomeDiscoveryContext, mode: 'verify' | 'discover'): Promise<boolean[]>;
  /** The live processes that use the conversation, with the signal that showed each (see `findInUseHolders`). */
  holders(id: string, ctx: HomeDiscoveryContext): Promise<InUseHolder[]>;
  /** What a purge would remove, refuse and leave named; changes nothing. */
  planPurge(id: string, ctx: HomeDiscoveryContext): Promise<AdapterPurgePlan>;
  /** Removes every artifact of the conversation (confined, fd-anchored removals); says what it removed and what it left. */
  executePurge(id: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome>;
  /** What is still there of the conversation's own artifacts, each with the reason it stays. */
  residual(id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]>;
  /** Shared files and rows (never removed) that still name the id. */
  mentions(id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]>;
  /** A cheap, read-only look at the store under `ctx.home`. */
  inspect(ctx: HomeDiscoveryContext): Promise<StoreReport>;
  /** Any candidate artifact exists, even one a purge would refuse to follow; default: `residual` is not empty. */
  hasArtifacts?(id: string, ctx: HomeDiscoveryContext): Promise<boolean>;
  /** `hasArtifacts` from by-id lookups where the store allows; default: `hasArtifacts`. */
  owns?(id: string, ctx: HomeDiscoveryContext): Promise<boolean>;
  /** The id a recorded conversation continues under now, or null when unknown (agents whose ids move). */
  currentId?(id: string, ctx: HomeDiscoveryContext): Promise<string | null>;
  /** Where the remains of a conversation whose purge stopped part-way belong (see `RemainsBelonging`). */
  remainsBelonging?(id: string, ctx: HomeDiscoveryContext): Promise<RemainsBelonging | null>;
  /** What a purge of the id could not guarantee, asked after it ran (a WAL a live writer kept …); default none. */
  purgeNotes?(id: string, ctx: HomeDiscoveryContext): Promise<string[]>;
  /** The capture of a live post-discovered session, when the agent's rule differs from the shared one. */
  capture?(row: CaptureRow, ctx: HomeDiscoveryContext, self: CaptureSelf): Promise<CaptureResult>;
  /** Can the CLI start here, with its check's exit code; default: it can. */
  preflight?(ctx: HomeDiscoveryContext): Promise<PreflightResult>;
}

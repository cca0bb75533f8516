import type { InUseHolder } from '../agents/types.js';
import type { AgentName } from '../ids/agent-names.js';
import type { Artifact, LeftArtifact } from './artifact.js';
import type { PurgeFault } from './purge-fault.js';

/**
 * Options of {@link PurgeService.plan} and {@link PurgeService.purge}.
 * @public
 */
export interface PurgeOptions {
  /** The home whose agent dirs hold the conversation (absolute). */
  home: string;
  /**
   * Scopes the purge to a workspace: a conversation that does not verify as one of this workspace (the adapter's
   * `verifyArtifact(id, ctx, 'verify')`) is refused as `not-in-workspace`, removing nothing — unless a purge stopped
   * part-way left it and what is left records this workspace (`remainsBelonging` answers `here`), or only old copies of
   * deleted rows are left. Without it nothing is scoped: the id alone decides.
   */
  workspace?: string;
  /** The agent environment (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_DATA_HOME …); default: the caller's, when `home` is the caller's HOME. */
  env?: Record<string, string | undefined>;
  /**
   * Stops the call between steps, rejecting with `signal.reason`: looked at before each store is read and once more
   * before anything is removed; once the removal of the plan's artifacts has begun it runs to its end (never a
   * half-done purge) and the call answers what it did. Not kept in a plan's `options`.
   */
  signal?: AbortSignal;
}

/**
 * A live process that uses the conversation, with the signal that showed it (one per process).
 * @public
 */
export type PurgeHolder = Pick<InUseHolder, 'pid' | 'command' | 'signal'>;

/**
 * Another agent's artifacts of the same id, found by an `auto` purge and not purged by it (claude and agy share uuid ids).
 * @public
 */
export interface OtherAgentArtifacts {
  /** The other agent (a built-in name, or an outside definition's). */
  agent: AgentName | (string & {});
  /** What of the id that agent has on disk (purge it with that agent named). */
  artifacts: Artifact[];
}

/**
 * What executing a plan would give: `purge` (it would remove every artifact), `partial` (it would run, removing some
 * and leaving the refused ones), or why it would remove nothing (`in-use`, `unresolved`, `not-in-workspace`, `refused`:
 * a database that must not be written, a store that cannot be read, nothing it could remove).
 * @public
 */
export type PurgeVerdict = 'purge' | 'partial' | 'in-use' | 'unresolved' | 'not-in-workspace' | 'refused';

/**
 * A purge previewed: what it would remove, refuse and leave named, and whether it would run. Planning changes nothing;
 * {@link PurgeService.execute} runs it, refusing when the disk no longer matches.
 * @public
 */
export interface PurgePlan {
  /** The agent (resolved for `auto`; a built-in name, or an outside definition's), or null when no agent has any artifact of the id. */
  agent: AgentName | (string & {}) | null;
  /** The id as asked. */
  id: string;
  /** The options the plan was made with (execute re-plans with them). */
  options: PurgeOptions;
  /** Whether the purge would run, or why not. */
  verdict: PurgeVerdict;
  /** Why, in a sentence a person reads. */
  reason: string;
  /** Every artifact the purge would remove, in removal order. */
  artifacts: Artifact[];
  /** What it would refuse to touch, each with its reason (unknown layout, behind a link, a hard-linked database …). */
  refused: LeftArtifact[];
  /** The live processes using the conversation now (the purge would be refused while there is any). */
  holders: PurgeHolder[];
  /** Commands a person can run to see a holder. */
  hints: string[];
  /** Shared files and rows that name the id and are never removed. */
  mentions: Artifact[];
  /** What a person should know that is no artifact. */
  notes: string[];
  /** The typed causes behind what it refuses (an unreadable store, a missing binding …), each once. */
  faults: PurgeFault[];
  /** Other agents' artifacts of the same id (an `auto` plan): reported, never purged by this plan. */
  otherAgents: OtherAgentArtifacts[];
}

/**
 * One way the disk no longer matches a plan: an artifact the plan did not list (`new`), a path that is now a link
 * (`became-link`) or of another kind (`kind-changed`), rows that grew (`more-rows`), a refusal the plan did not have
 * (`new-refusal`).
 * @public
 */
export interface PlanChange {
  /** What changed. */
  change: 'new' | 'became-link' | 'kind-changed' | 'more-rows' | 'new-refusal';
  /** The artifact as it is now. */
  artifact: Artifact;
  /** The artifact as planned, when the plan had it. */
  planned?: Artifact;
}

import type { PurgeFault } from '../purge/purge-fault.js';
import type { Artifact, LeftArtifact } from '../purge/artifact.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';

/**
 * A {@link DiscoveryContext} spelled with `home`: what every adapter method reads once it has checked its context.
 * @public
 */
export interface HomeDiscoveryContext {
  /** The workspace, an absolute path (compared by realpath). */
  workspace: string;
  /** The home directory whose agent config/data dirs are read: an absolute path to an existing directory. */
  home: string;
  /**
   * The former name of `home`, still accepted: give one of the two (both only when equal).
   * @deprecated Use `home`.
   */
  homeDir?: string;
  /** The agent's environment (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_DATA_HOME, TMPDIR, PATH …); default: the ProcessPort's env. */
  env?: Record<string, string | undefined>;
  /** The session instance's start, epoch seconds: discovery keeps only conversations at or after it. */
  epoch?: number;
  /** The row's pane process (capture proves candidates against it and its descendants). */
  panePid?: number;
  /** Ids other rows record: never a candidate for this one. */
  siblingClaimedIds?: readonly string[];
  /** Stops the call between steps: an aborted signal rejects it with `signal.reason` (a purge's removal, once begun, completes). */
  signal?: AbortSignal;
}

/**
 * One id to verify in a batch ({@link AgentAdapter.verifyMany}), against its own workspace when given.
 * @public
 */
export interface VerifyQuery {
  /** The id to verify. */
  id: string;
  /** The workspace to verify it against (a row's pane cwd); default: the context's. */
  workspace?: string;
}

/**
 * A {@link DiscoveryContext} in its former spelling, `homeDir` for `home`; adapter methods accept it and read it as `home`.
 * @deprecated Use {@link DiscoveryContext} with `home`.
 * @public
 */
export type HomeDirDiscoveryContext = Omit<HomeDiscoveryContext, 'home' | 'homeDir'> & {
  /**
   * The home directory (the former name of `home`).
   * @deprecated Use `home`.
   */
  homeDir: string;
  /** Equal to `homeDir` when both are given. */
  home?: string;
};

/**
 * Where and for whom an adapter looks: the workspace, the home whose agent dirs are read (`home`, or its former name
 * `homeDir`, deprecated), and the session's context. Every adapter method checks it first and throws
 * `InvalidArgumentError` (`data.param` such as `ctx.home`) for a missing or relative path, an empty string, a NUL byte,
 * a home that does not exist or is no directory.
 * @public
 */
export type DiscoveryContext = HomeDiscoveryContext | HomeDirDiscoveryContext;

/**
 * The former name of {@link DiscoveryContext}, which now accepts both spellings itself.
 * @deprecated Use {@link DiscoveryContext}.
 * @public
 */
export type DiscoveryContextInput = DiscoveryContext;

/**
 * The outcome of capturing the one id a live post-discovered session uses.
 * @public
 */
export type CaptureResult =
  | { kind: 'captured'; id: string }
  | { kind: 'none'; reason: 'no-candidate' | 'ambiguous' | 'claimed-by-other-row' | 'not-newer' | 'unprovable'; candidates: string[] };

/**
 * A live process that uses a conversation, and the signal that showed it.
 * @public
 */
export interface InUseHolder {
  /** The holder's process id. */
  pid: number;
  /** The holder's command line from the process table (lsof's short name when the table lacks the pid). */
  command: string;
  /** `command-line` (names the id), `session-env` (the caller's own session variable), `open-file` (lsof), `pid-file` (claude `sessions/<pid>.json`). */
  signal: 'command-line' | 'session-env' | 'open-file' | 'pid-file';
  /** The path held open, or the variable / pid file that named the id. */
  detail?: string;
}

/**
 * What a purge of one conversation would do, as an adapter sees it now (planning changes nothing).
 * @public
 */
export interface AdapterPurgePlan {
  /** Every artifact the purge would remove, in removal order (paths of their lstat kind, database rows with their count). */
  artifacts: Artifact[];
  /** What the purge would refuse to touch, each with its reason (unknown layout, a path behind a link, a hard-linked database …). */
  refused: LeftArtifact[];
  /** Shared files and rows that name the id and are never removed. */
  mentions: Artifact[];
  /** What a person should know that is no artifact (the WAL still holds deleted text, a cloud copy is out of reach …). */
  notes: string[];
}

/**
 * The plain facts of an agent that every `AgentDefinition` carries (what an adapter tells of the definition it was made of).
 * @public
 */
export interface AgentFacts<N extends string = string> {
  /** The canonical lower-case name. */
  readonly name: N;
  /** The registry row field that records this agent's own id. */
  readonly ownKey: string;
  /** Who picks the id: the library (`pre_assigned`) or the CLI (`post_discovered`). */
  readonly idLifecycle: 'pre_assigned' | 'post_discovered';
  /** The variables the CLI exports to its tool shells naming the conversation. */
  readonly sessionEnvVars: readonly string[];
}

/**
 * What a purge of one conversation did: what it removed and what is left of its own artifacts, with why.
 * @public
 */
export interface AdapterPurgeReport {
  /** The artifacts removed, of the kind their lstat gave before removal. */
  removed: Artifact[];
  /** What is still there of the conversation's own artifacts, each with the reason it stays. */
  residual: LeftArtifact[];
}

/**
 * The fields of a session row capture reads (a `SessionRow` is one); others are kept as they are.
 * @public
 */
export interface CaptureRow {
  /** The session instance's start, epoch seconds, when recorded. */
  readonly herdr_session_epoch?: number | null | undefined;
  /** The row's pane (capture proves candidates against its process). */
  readonly pane?: unknown;
  /** Any other field of the row. */
  readonly [field: string]: unknown;
}

/**
 * What one agent's store looks like, so an empty answer can say why: `missing` (no store here), `unreadable`,
 * `unknown-layout` (a version this library does not know: discovery finds nothing there, a purge refuses), or `ok`.
 * Derived from the store's {@link StoreReport} (`AgentAdapter.inspect`): one look, two views.
 * @public
 */
export interface StoreSurvey {
  /** The agent (a built-in name, or an outside definition's). */
  agent: string;
  /** The store's state. */
  store: 'missing' | 'unreadable' | 'unknown-layout' | 'ok';
  /** The root looked at (the agent's config or data dir, or its database). */
  root: string;
  /** Why, when not plainly `ok` (or when `ok` hides something, e.g. rows pointing outside the home). */
  reason?: string;
  /** What was counted (conversations, rollouts, rows …), by name. */
  counts?: Record<string, number>;
  /** Rows whose recorded path lies outside the home (a moved `CODEX_HOME`: discovery cannot prove them). */
  outsideHome?: number;
}

/**
 * The outcome of an agent CLI's preflight: whether it can start here, and the exit code its check gave.
 * @public
 */
export interface PreflightResult {
  /** True when the CLI can start here. */
  ok: boolean;
  /** The check's exit code: 0 when `ok`, else the CLI's non-zero code (1 when it gave none). */
  exitCode: number;
}

/**
 * What one agent's store looks like before anything destructive runs: whether it is there, the layout or version it
 * records about itself, whether the adapter knows that layout (an unknown one makes destructive work refuse), counts, and
 * the problems found (unreadable databases, rows pointing outside the home).
 * @public
 */
export interface StoreReport {
  /** The agent (a built-in name, or an outside definition's). */
  agent: string;
  /** `present`, `absent`, or `not-inspected` (the adapter has no store inspection). */
  presence: 'present' | 'absent' | 'not-inspected';
  /** Where the store lives (the agent's home or data dir), or null. */
  root: string | null;
  /** The layout or version, from what the store itself records (schema version, migrations, version fields), or null. */
  layout: string | null;
  /** True when the adapter knows the layout, false when it will refuse destructive work on it, null when not told. */
  known: boolean | null;
  /** Counts of what is there (threads, rollouts, sessions, transcripts …). */
  counts: Record<string, number>;
  /** What is wrong or doubtful, one line each. */
  problems: string[];
  /**
   * False when part of the store could not be read (a root that does not list or is no directory, a database that does
   * not open, an inspection that failed): what it holds there is not known. Omitted when everything looked at was read.
   */
  readable?: boolean;
  /** Rows whose recorded path lies outside the home (Codex: a moved `CODEX_HOME`, whose threads discovery cannot prove); set by stores that record such paths. */
  outsideHome?: number;
  /** The problems that name a cause (an unreadable store, a read-only disk, a missing binding …), typed; set by `inspectStores`. */
  faults?: PurgeFault[];
}

/**
 * Where the remains of a conversation whose purge stopped part-way belong: `here` when every record left that names a
 * workspace names `ctx.workspace` (and one does), `elsewhere` when one names another, `unrecorded` when none names any.
 * @public
 */
export type RemainsBelonging = 'here' | 'elsewhere' | 'unrecorded';

/**
 * Where one agent CLI keeps its conversations, and how to find, prove, guard and remove one. Every method checks its
 * arguments first and throws (rejects with) `InvalidArgumentError` for one it cannot take — a bad argument is a
 * programming error — while a missing, unreadable or unknown store stays a result.
 * @public
 */
export interface AgentAdapter<N extends string = string> {
  /** The canonical agent name. */
  readonly name: N;
  /** The facts of the definition the adapter was made of (`createAdapter` sets the definition itself). */
  readonly definition?: AgentFacts<N>;
  /** The CLI arguments that resume a conversation (`--resume <id>` …), empty for an implausible id. */
  resumeArgs?(id: string): string[];
  /** The row field that records this agent's own id. */
  readonly ownKey: string;
  /** `pre_assigned`: mam picks the id and passes it to the CLI (claude, grok); `post_discovered`: the CLI picks it and capture finds it on disk (agy, codex, hermes, opencode). */
  readonly idLifecycle: 'pre_assigned' | 'post_discovered';
  /** The variable the CLI exports to its tool shells (codex: none known). */
  readonly sessionEnvVar?: string;
  /** The TUI's empty-input text, literal, when known. */
  readonly inputPlaceholder?: string;
  /** The TUI's empty-input line as a full-line pattern, when known. */
  readonly inputPlaceholderPattern?: RegExp;
  /** Child process names that belong to the idle TUI. */
  readonly residentChildren: readonly string[];
  /** Candidate ids of conversations in `ctx.workspace`, newest first. */
  discover(ctx: DiscoveryContext): Promise<string[]>;
  /** Does this id have a conversation of this workspace on disk (`discover` mode is stricter: excludes ids other rows record). */
  verifyArtifact(id: string, ctx: DiscoveryContext, mode?: 'verify' | 'discover'): Promise<boolean>;
  /**
   * `verifyArtifact` in `verify` mode for many ids at once, in order (false for one whose check fails), opening each
   * store once for the whole batch; optional (callers fall back to one `verifyArtifact` per id).
   */
  verifyMany?(queries: readonly VerifyQuery[], ctx: DiscoveryContext): Promise<boolean[]>;
  /** The id a recorded conversation continues under now (Hermes: the tip of its compression chain), or null when unknown; absent for agents whose ids never move. */
  currentId?(id: string, ctx: DiscoveryContext): Promise<string | null>;
  /** The one id this row's live session uses, or why not. */
  captureActiveSessionId(row: CaptureRow, ctx: DiscoveryContext): Promise<CaptureResult>;
  /** Does any live process use this conversation (all four signals). */
  conversationInUse(id: string, ctx: DiscoveryContext): Promise<boolean>;
  /** The processes that use it, with the signal that showed each (empty when none). */
  inUseHolders(id: string, ctx: DiscoveryContext): Promise<InUseHolder[]>;
  /** Commands a person can run to see the holder. */
  inUseHints(id: string, ctx: DiscoveryContext): string[];
  /** What a purge of the conversation would remove, refuse and leave named (changes nothing). Never throws on a bad or unreadable store. */
  planPurge(id: string, ctx: DiscoveryContext): Promise<AdapterPurgePlan>;
  /**
   * Removes every artifact of the conversation and reports what it removed and what is left, each left artifact with
   * its reason (a swapped directory, a failed row delete …). Never throws on a bad or unreadable store.
   */
  purge?(id: string, ctx: DiscoveryContext): Promise<AdapterPurgeReport>;
  /** Removes every artifact of the conversation; returns what was removed (`purge` also says what is left). Never throws on a bad or unreadable store. */
  purgeArtifacts(id: string, ctx: DiscoveryContext): Promise<Artifact[]>;
  /** What is still there of this conversation's own artifacts (paths and database rows), each with the reason it stays. */
  residualArtifacts(id: string, ctx: DiscoveryContext): Promise<LeftArtifact[]>;
  /** Shared files and rows (never removed) that still name the id. */
  mentions(id: string, ctx: DiscoveryContext): Promise<Artifact[]>;
  /** Any candidate artifact exists, even one a purge would refuse to follow. */
  hasArtifacts(id: string, ctx: DiscoveryContext): Promise<boolean>;
  /** `hasArtifacts` answered from by-id lookups where the store allows (what `purge('auto', id)` asks of every agent); optional. */
  owns?(id: string, ctx: DiscoveryContext): Promise<boolean>;
  /**
   * Which workspace what is left of a conversation records when a piece `verifyArtifact` needs is gone (a purge stopped
   * part-way removed it), or null when the conversation is whole (`verifyArtifact` alone answers then) or nothing of it
   * is left; see {@link RemainsBelonging}. A purge scoped to `ctx.workspace` finishes a conversation answered `here`.
   * Optional: without it, a scoped purge accepts only what verifies.
   */
  remainsBelonging?(id: string, ctx: DiscoveryContext): Promise<RemainsBelonging | null>;
  /** Can this CLI start here. */
  authOk(ctx: DiscoveryContext): Promise<boolean>;
  /** What the agent's store looks like here (why `discover` may answer `[]`); read-only, never throws on a bad store, apart from `discover`. */
  survey(ctx: DiscoveryContext): Promise<StoreSurvey>;
  /** What a purge of the id could not guarantee, asked after it ran (e.g. a `-wal` a live writer kept still holds the deleted text). */
  purgeNotesOf?(id: string, ctx: DiscoveryContext): Promise<string[]>;
  /** The same check with the CLI's exit code, so a failed create can give it (0 when the CLI can start). */
  preflight(ctx: DiscoveryContext): Promise<PreflightResult>;
  /** A cheap, read-only look at the agent's store under `ctx.home` (`ctx.workspace` is not used); optional. Never rejects on a bad store. */
  inspect?(ctx: DiscoveryContext): Promise<StoreReport>;
}

import type { AgentAdapter } from '../../agents/types.js';
import type { Ports } from '../../ports/index.js';

/**
 * The laws {@link runAgentContract} checks, each by its own name:
 * - `discover-verifies`: every id `discover` offers verifies (`verifyArtifact`, in both workspaces of the stage);
 * - `discover-offers-ids`: `discover` offers exactly the stage's `ids` (as a set), in each workspace;
 * - `verify-many-agrees`: `verifyMany` answers, in order, what `verifyArtifact` answers for each id (the other
 *   workspace's ids, unknown and implausible ids included);
 * - `implausible-id-reads-nothing`: an implausible id (`../x`, `''`, a NUL byte, an absolute path, another agent's id
 *   shape) reaches no path through the filesystem port and every method answers "nothing" for it;
 * - `plan-changes-nothing`: `planPurge` of every id leaves the tree as it was (paths, kinds, sizes, mtimes, contents);
 * - `purge-removes-id`: after `purgeArtifacts` nothing of the id verifies, `discover` no longer offers it, the sibling
 *   conversations still verify, and every `residualArtifacts` entry carries a reason;
 * - `live-holder-refuses`: a live process naming the id makes `inUseHolders` non-empty (and, with the `purgeService`
 *   option, `PurgeService` answers `in-use` and changes nothing);
 * - `unknown-layout-refuses`: on an unknown-layout stage, `planPurge` refuses (something `refused`, no `artifacts`) and
 *   `purgeArtifacts` removes nothing;
 * - `inspect-never-rejects`: `inspect` (when the adapter has it) resolves, also on an empty home and on a home whose
 *   subtree is garbled;
 * - `bad-arguments-rejected`: a number for an id, a relative workspace, a missing home, a missing context throw (reject
 *   with) `InvalidArgumentError`.
 * @public
 */
export const AGENT_CONTRACT_LAWS = [
  'discover-verifies',
  'discover-offers-ids',
  'verify-many-agrees',
  'implausible-id-reads-nothing',
  'plan-changes-nothing',
  'purge-removes-id',
  'live-holder-refuses',
  'unknown-layout-refuses',
  'inspect-never-rejects',
  'bad-arguments-rejected',
] as const;

/**
 * One law of the agent contract (see {@link AGENT_CONTRACT_LAWS}).
 * @public
 */
export type AgentContractLaw = (typeof AGENT_CONTRACT_LAWS)[number];

/**
 * What a stage laid out under its root: where the agent's store is, and which conversations it holds.
 * @public
 */
export interface StageLayout {
  /** The home whose agent dirs hold the store (absolute, existing). */
  home: string;
  /** The workspace the `ids` belong to (absolute, existing). */
  workspace: string;
  /** The agent's environment (CODEX_HOME, XDG_DATA_HOME, PATH …); passed as `ctx.env`. */
  env?: Record<string, string | undefined>;
  /** The conversations of `workspace`: `discover` must offer exactly these (as a set). On an ordinary stage the first is the one purged. */
  ids: string[];
  /** A second workspace and its conversations (they must verify there, not be offered in `workspace`, and survive the purge). */
  otherWorkspace?: { workspace: string; ids: string[] };
  /** On an unknown-layout stage: the ids whose artifacts lie in the layout the adapter must refuse (default: `ids`). */
  refusedIds?: string[];
}

/**
 * One stage of the contract: a named layout of an agent's store that `build` writes under `root`, a fresh empty
 * directory the suite makes (and removes afterwards).
 * @public
 */
export interface AgentContractStage {
  /** The stage's name (unique within the run); names its tests. */
  name: string;
  /**
   * True when the store is of a layout the adapter must refuse: the `unknown-layout-refuses` law runs on the stage in
   * place of `purge-removes-id` and `live-holder-refuses`.
   */
  unknownLayout?: boolean;
  /** Lays the stage out under `root` (absolute, canonical, empty) and says what it holds. */
  build(root: string): Promise<StageLayout>;
}

/**
 * The part of a purge service the `live-holder-refuses` law drives: `purge(agent, id, opts)` answering a result with a
 * `kind` (`in-use` when a live holder refused it).
 * @public
 */
export interface AgentContractPurgeService {
  /** Plans and runs the purge of one conversation (what `PurgeService.purge` does). */
  purge(agent: string, id: string, opts: { home: string; workspace?: string; env?: Record<string, string | undefined> }): Promise<{ kind: string }>;
}

/**
 * Options of {@link runAgentContract} and {@link describeAgentContract}.
 * @public
 */
export interface AgentContractOptions {
  /** Makes the adapter under test on the ports the suite gives (called afresh for every law, so no purge memory is shared). */
  adapter: (ports: Ports) => AgentAdapter;
  /** The stages the laws run over (at least one). */
  stages: readonly AgentContractStage[];
  /**
   * Ports to run on (default Node's: the real filesystem and clock). `proc` is always the suite's own `FakeProcessTable`,
   * so a live holder is simulated by a process whose command line names the id.
   */
  ports?: Partial<Omit<Ports, 'proc'>>;
  /**
   * The purge service `live-holder-refuses` also purges through (it requires `in-use` with the tree unchanged), e.g.
   * `(ports) => new PurgeService({ ports })` for a built-in agent. Default: for an agent defined outside the package
   * (the adapter has a `definition` whose name is not a built-in one), `new PurgeService({ ports, agents: [definition] })`;
   * for any other adapter the law is checked at the adapter level only.
   */
  purgeService?: (ports: Ports) => AgentContractPurgeService;
  /** More ids the adapter must find implausible (beyond `../x`, `''`, a NUL byte, absolute paths, other built-in agents' shapes). */
  implausibleIds?: readonly string[];
}

/**
 * The verdict of one law on one stage.
 * @public
 */
export interface AgentContractLawResult {
  /** The law. */
  law: AgentContractLaw;
  /** The stage's name. */
  stage: string;
  /** True when the law holds. */
  ok: boolean;
  /** Why it failed (or a remark when it held, e.g. an optional method the adapter lacks). */
  message?: string;
}

/**
 * What {@link runAgentContract} found: every law on every stage.
 * @public
 */
export interface AgentContractReport {
  /** The adapter's `name`. */
  agent: string;
  /** True when every law held on every stage. */
  passed: boolean;
  /** One verdict per law and stage, stage by stage in the order given. */
  laws: AgentContractLawResult[];
}

/**
 * The test-runner functions {@link describeAgentContract} registers with (vitest's, jest's, or `node:test`'s
 * `describe` and `it`).
 * @public
 */
export interface AgentContractRunner {
  /** Opens a group of tests. */
  describe: (name: string, body: () => void) => unknown;
  /** Registers one test; its function rejects when the law fails. */
  it: (name: string, fn: () => Promise<void>) => unknown;
  /** Registers a hook run after the group's tests (removes a shared stage some skipped test left); optional. */
  afterAll?: (fn: () => Promise<void>) => unknown;
}

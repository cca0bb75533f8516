import type { Ports } from '../../ports/index.js';
import type { AgentFacts, HomeDiscoveryContext } from '../types.js';
import type { AgentStore } from './agent-store.js';
import { checkDefinition } from './check-definition.js';

/**
 * How an agent's conversation ids look: the canonical spelling of a plausible id, and the spellings to search process
 * tables for.
 * @public
 */
export interface AgentIds {
  /** A word for the shape, used in messages and by `idShape` (`uuid`, `opencode`, `hermes`, or the agent's own). */
  readonly shape: string;
  /** The canonical spelling of a plausible id, or null for anything else (`../x`, '', a NUL byte …): a null id reaches no path. */
  canonical(id: string): string | null;
  /** Every spelling of a canonical id to search command lines and environments for; default: the id itself. */
  spellings?(canonical: string): string[];
  /** Compare ids case-insensitively in command lines and environments (uuids); default false. */
  readonly caseInsensitive?: boolean;
  /** A conversation may continue under a new id (Hermes' compression): the store answers `currentId`; default false. */
  readonly moves?: boolean;
}

/**
 * How the agent's CLI is started and resumed under herdr.
 * @public
 */
export interface AgentLaunch {
  /** The CLI's arguments for a new session (after `--` of `herdr agent start`), given the pre-assigned id or null. */
  args(id: string | null): string[];
  /** The CLI's arguments that resume a conversation (`--resume <id>` …), given its canonical id. */
  resumeArgs(id: string): string[];
  /** A new id for a pre-assigned agent (the library picks it); absent for a post-discovered one. */
  mintId?(): string;
  /** The herdr agent kind, when herdr knows the agent (`claude`, `codex` …). */
  readonly herdrKind?: string;
  /** The TUI's empty-input text, literal, when known. */
  readonly inputPlaceholder?: string;
  /** The TUI's empty-input line as a full-line pattern, when known. */
  readonly inputPlaceholderPattern?: RegExp;
  /** Child process names that belong to the idle TUI. */
  readonly residentChildren?: readonly string[];
}

/**
 * How the argument check of a read may overlap the read: `files` (discover, verify, owns, hasArtifacts and currentId
 * only read files: the home's stat runs alongside), `files-then-spawn` (they read files until they spawn, and every spawn
 * first awaits the home check), or `any` (the home is checked first); `provesHome` lets a read that finds a path inside
 * the home stand for the home's stat.
 * @public
 */
export interface AgentReads {
  /** What the read-only methods of the store do. */
  readonly kind: 'files' | 'files-then-spawn' | 'any';
  /** The store records paths it found inside the home (see home-proof), so the home's own stat may be skipped. */
  readonly provesHome?: boolean;
}

/**
 * Everything the library knows of one agent CLI, as one plain value: its name, the registry field of its own id, its
 * ids and their lifecycle, the variables it exports to its tool shells, how it is launched and resumed, and its store.
 * Built-in agents and agents from outside the package are both written with {@link defineAgent}, and accepted alike by
 * `createAdapter`, `PurgeService`, `inspectStores` and the `mam` CLI.
 * @public
 */
export interface AgentDefinition<N extends string = string, K extends string = string> extends AgentFacts<N> {
  /** The canonical lower-case name (`[a-z][a-z0-9-]*`). */
  readonly name: N;
  /** The registry row field that records this agent's own id, e.g. `claude_session_id_own`. */
  readonly ownKey: K;
  /** `pre_assigned`: mam picks the id and passes it to the CLI; `post_discovered`: the CLI picks it and capture finds it on disk. */
  readonly idLifecycle: 'pre_assigned' | 'post_discovered';
  /** How its ids look. */
  readonly ids: AgentIds;
  /** The variables the CLI exports to its tool shells naming the conversation, the main one first (may be empty). */
  readonly sessionEnvVars: readonly string[];
  /** How its CLI starts and resumes. */
  readonly launch: AgentLaunch;
  /** How reads may overlap the argument check; default `{ kind: 'any' }`. */
  readonly reads?: AgentReads;
  /** Commands a person can run to see a holder of the (canonical) id; default: a `ps` line searching for it. */
  inUseHints?(id: string, ctx: HomeDiscoveryContext, ownEnv: Readonly<Record<string, string | undefined>>): string[];
  /** Opens the agent's store over a set of ports (once per adapter; may load its code on first use); it is given this definition. */
  store(ports: Ports, definition: AgentDefinition<N, K>): AgentStore | Promise<AgentStore>;
}

/**
 * Checks a definition and returns it as is, typed: the one way to write an agent, built in or from outside. Throws
 * `InvalidArgumentError` naming the field for a definition that cannot work (a name that is no lower-case word, a
 * missing store …).
 * @example
 * ```ts
 * export const notes = defineAgent({
 *   name: 'notes', ownKey: 'notes_session_id_own', idLifecycle: 'pre_assigned',
 *   ids: { shape: 'uuid', canonical: (id) => (/^[0-9a-f-]{36}$/i.test(id) ? id.toLowerCase() : null), caseInsensitive: true },
 *   sessionEnvVars: ['NOTES_SESSION_ID'],
 *   launch: { args: (id) => (id === null ? [] : ['--session', id]), resumeArgs: (id) => ['--resume', id] },
 *   store: (ports) => notesStore(ports),
 * });
 * ```
 * @public
 */
export function defineAgent<const N extends string, const K extends string>(definition: AgentDefinition<N, K>): AgentDefinition<N, K> {
  checkDefinition(definition);
  return definition;
}

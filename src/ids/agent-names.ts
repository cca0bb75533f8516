import { BUILTIN_AGENTS, type BuiltinAgent } from '../agents/builtin.js';
import { UnknownAgentError } from '../errors.js';

type NamesOf<T extends readonly { name: string }[]> = { readonly [K in keyof T]: T[K]['name'] };

/**
 * The agent CLIs the library ships, by canonical lower-case name, in the order of `BUILTIN_AGENTS`.
 * @public
 */
export const AGENT_NAMES = BUILTIN_AGENTS.map((d) => d.name) as unknown as NamesOf<typeof BUILTIN_AGENTS>;

/**
 * A canonical agent name.
 * @public
 */
export type AgentName = BuiltinAgent['name'];

const BY_NAME: ReadonlyMap<string, BuiltinAgent> = new Map(BUILTIN_AGENTS.map((d) => [d.name, d]));

/**
 * The definition of a built-in agent by canonical name (an {@link UnknownAgentError} for any other name).
 * @public
 */
export function builtinAgent<N extends AgentName>(name: N): Extract<BuiltinAgent, { name: N }> {
  const d = BY_NAME.get(requireAgentName(name));
  return d as Extract<BuiltinAgent, { name: N }>;
}

/**
 * True for exactly the canonical names (`"CLAUDE"` is not one).
 * @public
 */
export function isAgentName(name: unknown): name is AgentName {
  return typeof name === 'string' && (AGENT_NAMES as readonly string[]).includes(name);
}

/**
 * The canonical name, or an {@link UnknownAgentError}.
 * @public
 */
export function requireAgentName(name: unknown): AgentName {
  if (isAgentName(name)) return name;
  throw new UnknownAgentError(String(name), AGENT_NAMES);
}

/**
 * The registry row field that records an agent's own conversation id, e.g. `claude_session_id_own`.
 * @public
 */
export function ownKey(name: AgentName): string {
  return builtinAgent(name).ownKey;
}

/**
 * The registry row fields that record the built-in agents' own ids, in `AGENT_NAMES` order.
 * @public
 */
export const OWN_KEYS: readonly string[] = BUILTIN_AGENTS.map((d) => d.ownKey);

/**
 * The variables the built-in agents' CLIs export to their tool shells, naming the conversation the shell belongs to
 * (Codex exports both of its own, measured on 0.171), in `AGENT_NAMES` order.
 * @public
 */
export const SESSION_ENV_VARS: readonly string[] = BUILTIN_AGENTS.flatMap((d) => d.sessionEnvVars);

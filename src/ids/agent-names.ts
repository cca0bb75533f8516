import { UnknownAgentError } from '../errors.js';

/**
 * The six agent CLIs the library knows, by canonical lower-case name.
 * @public
 */
export const AGENT_NAMES = ['claude', 'agy', 'codex', 'grok', 'hermes', 'opencode'] as const;

/**
 * A canonical agent name.
 * @public
 */
export type AgentName = (typeof AGENT_NAMES)[number];

const OWN_KEYS = {
  claude: 'claude_session_id_own',
  agy: 'agy_conversation_id_own',
  codex: 'codex_session_id_own',
  grok: 'grok_session_id_own',
  hermes: 'hermes_conversation_id_own',
  opencode: 'opencode_session_id_own',
} as const satisfies Record<AgentName, string>;

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
  throw new UnknownAgentError(String(name));
}

/**
 * The registry row field that records an agent's own conversation id, e.g. `claude_session_id_own`.
 * @public
 */
export function ownKey(name: AgentName): string {
  return OWN_KEYS[requireAgentName(name)];
}

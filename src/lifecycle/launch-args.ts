import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { type AgentName, builtinAgent } from '../ids/agent-names.js';

const definition = (agent: AgentName | AgentDefinition<string>): AgentDefinition<string> => (typeof agent === 'string' ? builtinAgent(agent) : agent);

/**
 * The id the library chooses for an agent that takes one (a pre-assigned agent: its definition's `launch.mintId`, a new
 * uuid v4 for claude, gemini and grok), else null (the CLI picks it and the library discovers it afterwards). Takes a built-in
 * agent's name or any agent's definition.
 * @public
 */
export function preAssignedId(agent: AgentName | AgentDefinition<string>): string | null {
  const d = definition(agent);
  return d.idLifecycle === 'pre_assigned' && d.launch.mintId !== undefined ? d.launch.mintId() : null;
}

/**
 * The agent CLI's own arguments for a new session (after `--` of `herdr agent start`), from its definition's
 * `launch.args(id)`: the pre-assigned id for claude, gemini and grok (`--session-id <id>`, grok's `-s`: a new session only, grok
 * refuses an id that already has one); opencode runs as `--auto --standalone` (its 2.x TUI rejects `--agent`, and
 * `--standalone` keeps the per-user service out of it); the others take nothing. Takes a built-in agent's name or any
 * agent's definition.
 * @public
 */
export function launchArgs(agent: AgentName | AgentDefinition<string>, id: string | null): string[] {
  return [...definition(agent).launch.args(id)];
}

import { randomUUID } from 'node:crypto';
import { assertNever } from '../assert-never.js';
import type { AgentName } from '../ids/agent-names.js';

/**
 * The id the library chooses for an agent that takes one (claude, grok, gemini: a new uuid v4), else null (the CLI picks it and
 * the library discovers it afterwards).
 * @public
 */
export function preAssignedId(agent: AgentName): string | null {
  switch (agent) {
    case 'claude':
    case 'grok':
    case 'gemini':
      return randomUUID();
    case 'agy':
    case 'codex':
    case 'hermes':
    case 'opencode':
      return null;
    default:
      return assertNever(agent, 'agent');
  }
}

/**
 * The agent CLI's own arguments for a new session (after `--` of `herdr agent start`): the pre-assigned id for claude,
 * gemini and grok (`--session-id <id>`, grok's `-s`: a new session only, grok refuses an id that already has one); opencode runs as `--auto --standalone` (its 2.x TUI rejects `--agent`, and `--standalone`
 * keeps the per-user service out of it); the others take nothing.
 * @public
 */
export function launchArgs(agent: AgentName, id: string | null): string[] {
  switch (agent) {
    case 'claude':
    case 'grok':
    case 'gemini':
      return id === null ? [] : ['--session-id', id];
    case 'opencode':
      return ['--auto', '--standalone'];
    case 'agy':
    case 'codex':
    case 'hermes':
      return [];
    default:
      return assertNever(agent, 'agent');
  }
}

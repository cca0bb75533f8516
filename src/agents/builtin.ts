import { agy } from './agy/definition.js';
import { claude } from './claude/definition.js';
import { codex } from './codex/definition.js';
import { gemini } from './gemini/definition.js';
import { grok } from './grok/definition.js';
import { hermes } from './hermes/definition.js';
import { opencode } from './opencode/definition.js';

/**
 * The agents the library ships, in the order `'auto'` asks them: the one list every name, registry field, session
 * variable and message about the agents derives from (`AGENT_NAMES`, `ownKey`, `SESSION_ENV_VARS`, `normalizeAgentId`,
 * the row schema). Adding an agent is one folder and one line here.
 * @public
 */
export const BUILTIN_AGENTS = [claude, agy, codex, grok, hermes, opencode, gemini] as const;

/**
 * A built-in agent's definition.
 * @public
 */
export type BuiltinAgent = (typeof BUILTIN_AGENTS)[number];

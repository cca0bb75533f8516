import { assertNever } from '../assert-never.js';
import type { AgentName } from '../ids/agent-names.js';
import type { Ports } from '../ports/index.js';
import { agy } from './agy/definition.js';
import { claude } from './claude/definition.js';
import { codex } from './codex/definition.js';
import { createAdapter } from './contract/create-adapter.js';
import { gemini } from './gemini/definition.js';
import { grok } from './grok/definition.js';
import { hermes } from './hermes/definition.js';
import { opencode } from './opencode/definition.js';
import type { AgentAdapter } from './types.js';

/** A new adapter of `name` over complete `ports` (caches that outlive one instance are kept per ports, not here). */
export function makeAdapter(name: AgentName, ports: Ports): AgentAdapter<AgentName> {
  switch (name) {
    case 'claude':
      return createAdapter(claude, ports);
    case 'agy':
      return createAdapter(agy, ports);
    case 'codex':
      return createAdapter(codex, ports);
    case 'grok':
      return createAdapter(grok, ports);
    case 'hermes':
      return createAdapter(hermes, ports);
    case 'opencode':
      return createAdapter(opencode, ports);
    case 'gemini':
      return createAdapter(gemini, ports);
    default:
      return assertNever(name, 'agent');
  }
}

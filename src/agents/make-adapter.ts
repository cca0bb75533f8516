import { assertNever } from '../assert-never.js';
import type { AgentName } from '../ids/agent-names.js';
import type { Ports } from '../ports/index.js';
import { agy } from './agy/definition.js';
import { ClaudeAdapter } from './claude/claude-adapter.js';
import { CodexAdapter } from './codex/codex-adapter.js';
import type { AgentAdapter } from './types.js';
import { grok } from './grok/definition.js';
import { createAdapter } from './contract/create-adapter.js';
import { HermesAdapter } from './hermes/hermes-adapter.js';
import { OpencodeAdapter } from './opencode/opencode-adapter.js';

/** A new adapter of `name` over complete `ports` (caches that outlive one instance are kept per ports, not here). */
export function makeAdapter(name: AgentName, ports: Ports): AgentAdapter {
  switch (name) {
    case 'claude':
      return new ClaudeAdapter(ports);
    case 'agy':
      return createAdapter(agy, ports);
    case 'codex':
      return new CodexAdapter(ports);
    case 'grok':
      return createAdapter(grok, ports);
    case 'hermes':
      return new HermesAdapter(ports);
    case 'opencode':
      return new OpencodeAdapter(ports);
    default:
      return assertNever(name, 'agent');
  }
}

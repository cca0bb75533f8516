import { assertNever } from '../assert-never.js';
import type { AgentName } from '../ids/agent-names.js';
import { checkGetAdapterArgs } from '../validation/get-adapter-args.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';
import type { UnknownAgentError } from '../errors.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { AgyAdapter } from './agy/agy-adapter.js';
import { ClaudeAdapter } from './claude/claude-adapter.js';
import { CodexAdapter } from './codex/codex-adapter.js';
import type { BaseAdapter } from './common/base-adapter.js';
import { GrokAdapter } from './grok/grok-adapter.js';
import { HermesAdapter } from './hermes/hermes-adapter.js';
import { OpencodeAdapter } from './opencode/opencode-adapter.js';
import type { AgentAdapter } from './types.js';

function make(name: AgentName, ports: Ports): BaseAdapter {
  switch (name) {
    case 'claude':
      return new ClaudeAdapter(ports);
    case 'agy':
      return new AgyAdapter(ports);
    case 'codex':
      return new CodexAdapter(ports);
    case 'grok':
      return new GrokAdapter(ports);
    case 'hermes':
      return new HermesAdapter(ports);
    case 'opencode':
      return new OpencodeAdapter(ports);
    default:
      return assertNever(name, 'agent');
  }
}

/**
 * The adapter of an agent by canonical name: the type takes an {@link AgentName} (a typo fails to compile), and at run
 * time any other string (`"CLAUDE"` …) throws {@link UnknownAgentError}; a name that is no string, or `opts` / `opts.ports`
 * of the wrong shape, throws {@link InvalidArgumentError}.
 * @example
 * ```ts
 * const ids = await getAdapter('codex').discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export function getAdapter(name: AgentName, opts: { ports?: Partial<Ports> } = {}): AgentAdapter {
  const checked = checkGetAdapterArgs(name, opts);
  return make(checked.name, resolvePorts(checked.ports));
}

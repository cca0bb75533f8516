import type { UnknownAgentError } from '../errors.js';
import type { AgentName } from '../ids/agent-names.js';
import type { InvalidArgumentError } from '../invalid-argument-error.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { checkGetAdapterArgs } from '../validation/get-adapter-args.js';
import { makeAdapter } from './make-adapter.js';
import type { AgentAdapter } from './types.js';

/**
 * A new adapter of an agent by canonical name: the type takes an {@link AgentName} (a typo fails to compile), and at run
 * time any other string (`"CLAUDE"` …) throws {@link UnknownAgentError}; a name that is no string, or `opts` /
 * `opts.ports` of the wrong shape, throws {@link InvalidArgumentError}. What outlives one call (OpenCode's `debug paths`
 * answer) is kept per ports, so a new instance costs nothing more; code that runs many calls on one `Ports` shares
 * `adaptersOf`'s set instead.
 * @example
 * ```ts
 * const ids = await getAdapter('codex').discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export function getAdapter(name: AgentName, opts: { ports?: Partial<Ports> } = {}): AgentAdapter<AgentName> {
  const checked = checkGetAdapterArgs(name, opts);
  return makeAdapter(checked.name, resolvePorts(checked.ports));
}

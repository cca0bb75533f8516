import { requireAgentName } from '../ids/agent-names.js';
import { resolvePorts } from '../node/node-ports.js';
import type { Ports } from '../ports/index.js';
import { makeAdapter } from './make-adapter.js';
import type { AgentAdapter } from './types.js';

/**
 * A new adapter of an agent by canonical name (`"CLAUDE"` or anything else throws {@link UnknownAgentError}); what
 * outlives one call (OpenCode's `debug paths` answer) is kept per ports, so a new instance costs nothing more. Code that
 * runs many calls on one `Ports` shares {@link adaptersOf}'s set instead.
 * @example
 * ```ts
 * const ids = await getAdapter('codex').discover({ workspace: '/repo', homeDir: '/home/me' });
 * ```
 * @public
 */
export function getAdapter(name: string, opts: { ports?: Partial<Ports> } = {}): AgentAdapter {
  return makeAdapter(requireAgentName(name), resolvePorts(opts.ports));
}

import type { Ports } from '../../ports/index.js';
import { createAdapter } from '../contract/create-adapter.js';
import type { AgentAdapter, DiscoveryContext, HomeDiscoveryContext } from '../types.js';
import { claudeHintsFor } from './claude-hints.js';
import { canonicalClaudeId } from './claude-ids.js';
import { claude } from './definition.js';

/**
 * The adapter of the former `ClaudeAdapter` class: `createAdapter(claude, ports)`, whose `inUseHints` also answers an
 * implausible id as the class did (the id quoted, never pasted raw) where the definition's adapter answers nothing.
 */
function claudeLegacyAdapter(ports: Ports): ClaudeAdapter {
  const adapter = createAdapter(claude, ports);
  const hints = adapter.inUseHints;
  adapter.inUseHints = (id: string, ctx: DiscoveryContext): string[] => {
    const out = hints(id, ctx);
    if (canonicalClaudeId(id) !== null) return out;
    // The arguments were checked by the call above: `ctx` has a `home` or its former name `homeDir`.
    const c = ctx as Partial<HomeDiscoveryContext>;
    return claudeHintsFor(id, { ...c, home: c.home ?? (c.homeDir as string) } as HomeDiscoveryContext, ports.proc.env());
  };
  return adapter as ClaudeAdapter;
}

/**
 * Claude Code's adapter over a set of ports (see the `claude` definition).
 * @deprecated use getAdapter('claude') or createAdapter(claude, ports)
 * @public
 */
export const ClaudeAdapter = function ClaudeAdapter(ports: Ports): ClaudeAdapter {
  return claudeLegacyAdapter(ports);
} as unknown as new (ports: Ports) => ClaudeAdapter;

/**
 * An adapter of Claude Code (what `new ClaudeAdapter(ports)` gives): every method `createAdapter` always supplies is there.
 * @public
 */
export type ClaudeAdapter = AgentAdapter<'claude'> &
  Required<Pick<AgentAdapter<'claude'>, 'definition' | 'resumeArgs' | 'verifyMany' | 'purge' | 'owns' | 'remainsBelonging' | 'purgeNotesOf' | 'inspect'>>;

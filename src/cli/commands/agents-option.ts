// `--agents <module>`: the agents defined outside the package that `mam purge`, `discover` and `doctor` use beside the
// built-in ones. The module (a path from the current directory) is imported; its agent definitions are its default
// export when that is a list, else every export that passes the definition check. Nothing is registered globally.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentDefinition } from '../../agents/contract/agent-definition.js';
import { checkDefinition } from '../../agents/contract/check-definition.js';
import { checkOutsideAgents } from '../../agents/outside-agents.js';
import { describeError } from '../../errors.js';
import { UsageError } from './cli-kit.js';

const FLAG = '--agents';

const isDefinition = (v: unknown): v is AgentDefinition => {
  try {
    checkDefinition(v);
    return true;
  } catch {
    return false;
  }
};

// The definitions a module's namespace gives: a default export that is a list (each must be a definition), else every
// export that is one (the same object exported twice counts once).
function definitionsOf(ns: Record<string, unknown>, given: string): AgentDefinition[] {
  const main = ns['default'];
  if (Array.isArray(main)) {
    const bad = main.findIndex((d) => !isDefinition(d));
    if (bad >= 0) throw new UsageError(`${FLAG}: the default export of ${JSON.stringify(given)} is a list, and its item ${bad} is no agent definition (defineAgent)`, FLAG, given);
    return main as AgentDefinition[];
  }
  return [...new Set(Object.values(ns).filter(isDefinition))];
}

/**
 * The agent definitions of the module `given` names (relative to the current directory, or absolute), checked as
 * `PurgeService` checks its `agents`: a module that cannot be loaded, exports none, or gives a built-in agent's name or
 * one name twice is a usage error naming `--agents`.
 */
export async function loadAgentsOption(given: string): Promise<readonly AgentDefinition[]> {
  if (given.trim() === '') throw new UsageError(`${FLAG} must not be empty`, FLAG, given);
  let ns: Record<string, unknown>;
  try {
    ns = (await import(pathToFileURL(resolve(given)).href)) as Record<string, unknown>;
  } catch (err) {
    throw new UsageError(`${FLAG}: cannot load the module ${JSON.stringify(given)}: ${describeError(err).split('\n')[0] ?? ''}`, FLAG, given);
  }
  const defs = definitionsOf(ns, given);
  if (defs.length === 0) throw new UsageError(`${FLAG}: the module ${JSON.stringify(given)} exports no agent definition (defineAgent)`, FLAG, given);
  try {
    return checkOutsideAgents(defs, FLAG);
  } catch (err) {
    throw new UsageError(`${FLAG}: ${(err as Error).message.replace(/^invalid argument --agents: /, '')}`, FLAG, given);
  }
}

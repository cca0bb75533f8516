// Compile-time checks (`npx tsc --noEmit` reads this file; vitest does not run it): each `@ts-expect-error` line must
// fail to compile, or tsc reports the directive as unused.
import { adaptersOf } from '../../src/agents/adapters-of.js';
import { getAdapter } from '../../src/agents/get-adapter.js';
import type { DiscoveryContext, DiscoveryContextInput, HomeDiscoveryContext } from '../../src/agents/types.js';
import type { AgentName } from '../../src/ids/agent-names.js';

export async function typeChecks(agent: AgentName, someString: string): Promise<void> {
  getAdapter('codex');
  getAdapter(agent);
  // @ts-expect-error a typo is no agent name
  getAdapter('CLAUDE');
  // @ts-expect-error nor is any string
  getAdapter(someString);
  // @ts-expect-error ports must be port objects
  getAdapter('codex', { ports: 'node' });
  adaptersOf().get(agent);
  // @ts-expect-error an adapter set's get takes an AgentName too
  adaptersOf().get(someString);
  // @ts-expect-error and so does fresh
  adaptersOf().fresh('CLAUDE');

  const codex = getAdapter('codex');
  await codex.discover({ workspace: '/repo', home: '/home/me' });
  // The former spelling still compiles through AgentAdapter (deprecated).
  await codex.discover({ workspace: '/repo', homeDir: '/home/me' });
  // @ts-expect-error a context needs a home
  await codex.discover({ workspace: '/repo' });

  const ctx: DiscoveryContext = { workspace: '/repo', home: '/home/me' };
  const input: DiscoveryContextInput = ctx;
  await codex.planPurge('id', input);
  // Code written against the documented `homeDir` compiles: DiscoveryContext takes either spelling (homeDir deprecated).
  const old: DiscoveryContext = { workspace: '/repo', homeDir: '/home/me' };
  await codex.discover(old);
  await codex.planPurge('id', old);
  // Both spellings at once, as long as they are given (the adapter checks they are equal).
  const both: DiscoveryContext = { workspace: '/repo', home: '/home/me', homeDir: '/home/me' };
  void both;
  // @ts-expect-error one of home / homeDir is needed
  const neither: DiscoveryContext = { workspace: '/repo' };
  void neither;
  // @ts-expect-error a home is a string
  const wrong: DiscoveryContext = { workspace: '/repo', homeDir: 1 };
  void wrong;
  // The resolved spelling reads `home` as a string; the union does not promise it.
  const resolved: HomeDiscoveryContext = { workspace: '/repo', home: '/home/me' };
  const h: string = resolved.home;
  void h;
  // @ts-expect-error a DiscoveryContext may be spelled with homeDir only
  const h2: string = old.home;
  void h2;
  const asInput: DiscoveryContextInput = old;
  void asInput;
}

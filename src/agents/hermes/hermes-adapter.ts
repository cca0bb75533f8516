import type { Ports } from '../../ports/index.js';
import { createAdapter } from '../contract/create-adapter.js';
import type { AgentAdapter, HomeDiscoveryContext } from '../types.js';
import { hermes } from './definition.js';

/**
 * The Hermes adapter of the former API (`new HermesAdapter(ports)`): the adapter of the `hermes` definition, with the
 * members the class had beyond {@link AgentAdapter}.
 * @deprecated use getAdapter('hermes') or createAdapter(hermes, ports)
 * @public
 */
export type HermesAdapter = AgentAdapter<'hermes'> &
  Required<Pick<AgentAdapter<'hermes'>, 'verifyMany' | 'currentId' | 'owns' | 'purge' | 'purgeNotesOf' | 'inspect' | 'resumeArgs'>> & {
  /** The profile whose store holds the id (`default` for `HERMES_HOME`, else `<home>/.hermes`), or null when none does. Never throws. */
  profileOf(id: string, ctx: HomeDiscoveryContext): Promise<string | null>;
  /** The notes of a purge of the id (see `purgeNotesOf`). */
  purgeNotes(id: string, ctx: HomeDiscoveryContext): Promise<string[]>;
};

/**
 * The constructor of the former Hermes adapter class: `new HermesAdapter(ports)` returns `createAdapter(hermes, ports)`
 * with `profileOf` and `purgeNotes` added.
 * @public
 */
export interface HermesAdapterClass {
  /** The Hermes adapter over `ports`. */
  new (ports: Ports): HermesAdapter;
}

function legacyHermes(ports: Ports): HermesAdapter {
  const adapter = createAdapter(hermes, ports);
  // createAdapter defines every optional method (currentId too: the definition's ids move), hence the cast.
  return Object.assign(adapter, {
    profileOf: async (id: string, ctx: HomeDiscoveryContext): Promise<string | null> => (await import('./hermes-store.js')).hermesProfileOf(ports, id, ctx),
    purgeNotes: async (id: string, ctx: HomeDiscoveryContext): Promise<string[]> => (await adapter.purgeNotesOf?.(id, ctx)) ?? [],
  }) as HermesAdapter;
}

/**
 * @deprecated use getAdapter('hermes') or createAdapter(hermes, ports)
 * @public
 */
export const HermesAdapter = legacyHermes as unknown as HermesAdapterClass;

/** The module of what SessionRegistry's calls run (registry-work.ts). */
export type RegistryWork = typeof import('./registry-work.js');

let loadingWork: Promise<RegistryWork> | undefined;

/**
 * What the registry's calls run (parsing, validation, the commit, the lock, the mirror), loaded on the first call, once
 * for the process: importing @mam/core, or constructing a registry, does not load it.
 */
export function registryWork(): Promise<RegistryWork> {
  loadingWork ??= import('./registry-work.js');
  return loadingWork;
}

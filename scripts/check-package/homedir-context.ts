// Code written against the documented `homeDir` (deprecated for `home`) compiles in a strict consumer: a context typed
// `DiscoveryContext` in either spelling goes to every adapter method and to the sandbox's own context.
import { type DiscoveryContext, getAdapter, type HomeDiscoveryContext } from '@mam/core';

export async function formerSpelling(workspace: string, homeDir: string): Promise<string[]> {
  const ctx: DiscoveryContext = { workspace, homeDir };
  const codex = getAdapter('codex');
  await codex.verifyArtifact('id', ctx);
  return codex.discover(ctx);
}

export async function currentSpelling(workspace: string, home: string): Promise<string> {
  const ctx: HomeDiscoveryContext = { workspace, home };
  const asUnion: DiscoveryContext = ctx;
  await getAdapter('claude').discover(asUnion);
  return ctx.home;
}

// @ts-expect-error a context names its home (home or homeDir)
export const noHome: DiscoveryContext = { workspace: '/w' };

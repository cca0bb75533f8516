import type { Ports } from '../../ports/index.js';
import type { Artifact } from '../../purge/artifact.js';
import { deadCopyArtifacts } from '../../sqlite/finish-dead-copies.js';
import { provingLook } from '../../validation/home-proof.js';
import { agentEnv } from '../common/agent-env.js';
import type { HomeDiscoveryContext } from '../types.js';
import { codexHome, type CodexHome } from './codex-home.js';
import { codexDescendants } from './codex-subagents.js';
import { surveyCodex, surveyTrusted, type CodexSurvey } from './codex-survey.js';
import { lookDbDirs } from './state-cache.js';

/**
 * What the parts of one Codex store share over one set of ports: where the home is, one survey of it per id, the
 * sub-agent threads of an id, and the memory a store keeps between calls (the sub-agent threads a purge found).
 */
export interface CodexScope {
  /** The ports the store reads, removes and probes through. */
  readonly ports: Ports;
  /** The ports' clock: the home's listing and schema facts are remembered only once the files have settled by it. */
  readonly now: () => number;
  /** The sub-agent threads a purge found for a canonical id: once their links are gone, the residual and the mentions still look for them. */
  readonly purgedKids: Map<string, string[]>;
  /** The Codex home of the context's environment. */
  home(ctx: HomeDiscoveryContext): Promise<CodexHome>;
  /** The home of a store read (discover, verify), its database directories looked at through the home proof. */
  storeHome(ctx: HomeDiscoveryContext): Promise<CodexHome>;
  /** One look at everything the home holds of the id. */
  survey(id: string, ctx: HomeDiscoveryContext): Promise<CodexSurvey>;
  /** The sub-agent threads the id spawned (any depth), children first, with those a purge of it found. */
  descendants(id: string, ctx: HomeDiscoveryContext, s?: CodexSurvey): Promise<string[]>;
  /** The old copies of the id's deleted rows in each readable database that has thread columns. */
  deadCopies(s: CodexSurvey, id: string): Promise<Artifact[]>;
}

/** The shared part of a Codex store over `ports` (one per store object: its memory is the store's). */
export function codexScope(ports: Ports): CodexScope {
  const fs = ports.fs;
  const home = async (ctx: HomeDiscoveryContext): Promise<CodexHome> => codexHome(await agentEnv(fs, ports.proc, ctx), ctx.home);
  const survey = async (id: string, ctx: HomeDiscoveryContext): Promise<CodexSurvey> => surveyCodex(fs, await home(ctx), id);
  const purgedKids = new Map<string, string[]>();
  return {
    ports,
    now: () => ports.clock.now(),
    purgedKids,
    home,
    // The look the read's listing check takes anyway, through the home proof: a directory found inside the home stands
    // for the argument check's stat.
    async storeHome(ctx) {
      const h = await home(ctx);
      lookDbDirs(fs, h, provingLook(fs, ctx));
      return h;
    },
    survey,
    async descendants(id, ctx, s) {
      const sv = s ?? (await survey(id, ctx));
      const found = await codexDescendants(fs, sv.home, id, surveyTrusted(sv));
      return [...new Set([...found, ...(purgedKids.get(id) ?? [])])];
    },
    async deadCopies(s, id) {
      const dbs = s.dbs.filter((i) => i.ok && (i.columns.owned.length > 0 || i.columns.rolloutPaths.length > 0));
      return (await Promise.all(dbs.map((i) => deadCopyArtifacts(fs, i.db.path, [id])))).flat();
    },
  };
}

import type { AgentDefinition } from '../contract/agent-definition.js';
import { describeError } from '../../errors.js';
import type { Ports } from '../../ports/index.js';
import type { Artifact } from '../../purge/artifact.js';
import { agentEnv } from '../common/agent-env.js';
import type { AgentStore } from '../contract/agent-store.js';
import { pathPurge } from '../contract/path-purge.js';
import type { HomeDiscoveryContext, StoreReport } from '../types.js';
import { scanClaudeArtifacts } from './artifact-scan.js';
import { discoverClaude } from './claude-discover.js';
import { claudeHolders, type ClaudeLookups } from './claude-holders.js';
import { inspectClaudeConfig } from './claude-inspect.js';
import { claudeLocations } from './claude-locations.js';
import { claudeOwns } from './claude-owns.js';
import { claudeResidual, executeClaudePurge, foundPaths } from './claude-purge.js';
import { claudeVerifyMany } from './claude-verify-many.js';
import { sharedFilesNaming } from './shared-mentions.js';

/**
 * Claude Code's store over a set of ports (every id canonical): transcripts `projects/<key>/<id>.jsonl` verified by their
 * first recorded `cwd`, the conversation's dirs and files across the config root and the temp roots, live-session files,
 * background-job dirs; shared files (`.claude.json`, its backups, `history.jsonl`) are only reported. An unknown store
 * naming the id stops a purge.
 * @public
 */
export function claudeStore(ports: Ports, def: AgentDefinition): AgentStore {
  const { fs, proc } = ports;
  // The ports' clock: a transcript's first cwd is remembered under its lstat only once it has settled by it.
  const now = (): number => ports.clock.now();
  const look: ClaudeLookups = {
    // Where Claude keeps things for this context (the agent env decides: a sandbox home never inherits the caller's).
    locations: async (ctx) => claudeLocations(await agentEnv(fs, proc, ctx), ctx.home, ctx.workspace),
    scan: async (id, ctx) => scanClaudeArtifacts(fs, await look.locations(ctx), id),
  };
  // Shared files that still name the id; never removed.
  const mentions = async (id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    try {
      return (await sharedFilesNaming(fs, await look.locations(ctx), id)).map((path) => ({ kind: 'file' as const, path }));
    } catch {
      return [];
    }
  };
  // The plan: the conversation's dirs and files, job dirs, transcripts, then its session files; the rows of unknown
  // stores naming it; everything refused when an unknown store names it or a store or job state cannot be read.
  const { planPurge } = pathPurge(fs, {
    agent: 'claude',
    artifactPaths: async (id, ctx) => {
      const s = await look.scan(id, ctx);
      return [...s.items, ...s.jobs, ...s.transcripts, ...s.sessions.map(({ root, path }) => ({ root, path }))];
    },
    dbRows: async (id, ctx) => (await look.scan(id, ctx)).storeRows,
    purgeRefusals: async (id, ctx) => (await look.scan(id, ctx)).refusals,
    mentions,
  });
  return {
    discover: async (ctx) => discoverClaude(fs, await look.locations(ctx), ctx),
    // One rule for every mode and every batch size: the transcript's first recorded cwd must be the workspace (an id other
    // rows record is excluded by the caller in `discover` mode); each workspace resolved, each transcript's head read and
    // the unknown stores listed and read once per batch.
    async verifyMany(queries, ctx) {
      try {
        return await claudeVerifyMany(fs, await look.locations(ctx), queries, now);
      } catch {
        // A context whose locations cannot be told verifies nothing.
        return queries.map(() => false);
      }
    },
    holders: (id, ctx) => claudeHolders(ports, look, id, ctx, def.sessionEnvVars),
    planPurge,
    executePurge: (id, ctx) => executeClaudePurge(ports, look, id, ctx),
    residual: (id, ctx) => claudeResidual(fs, look, id, ctx),
    mentions,
    async hasArtifacts(id, ctx) {
      try {
        const s = await look.scan(id, ctx);
        return foundPaths(s).length + s.storeRows.length > 0;
      } catch {
        return false;
      }
    },
    // The names the id gives first, by lstat; the places only a listing reaches once each, and only when none is there.
    async owns(id, ctx) {
      try {
        return await claudeOwns(fs, await look.locations(ctx), id);
      } catch {
        return false;
      }
    },
    async inspect(ctx): Promise<StoreReport> {
      const loc = await look.locations(ctx);
      return inspectClaudeConfig(fs, loc).catch((err: unknown) => ({ agent: 'claude' as const, presence: 'present' as const, root: loc.config, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`], readable: false }));
    },
  };
}

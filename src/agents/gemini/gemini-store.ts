import type { Ports } from '../../ports/index.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { agentEnv } from '../common/agent-env.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { objectMemo, shareWhileRunning } from '../common/batch-memo.js';
import { findInUseHolders } from '../common/in-use.js';
import type { AgentDefinition } from '../contract/agent-definition.js';
import type { AgentStore } from '../contract/agent-store.js';
import { pathPurge } from '../contract/path-purge.js';
import type { HomeDiscoveryContext } from '../types.js';
import { conversationsOf, projectChats } from './gemini-chats.js';
import { type GeminiHome, geminiHome } from './gemini-home.js';
import { geminiInUse, geminiProcessesIn } from './gemini-in-use.js';
import { inspectGeminiHome } from './gemini-inspect.js';
import { dropLogEntries, type GeminiLogEntries } from './gemini-logs.js';
import { type GeminiProject, geminiProjects, projectsOfWorkspace, realOr } from './gemini-projects.js';
import { type GeminiSurvey, surveyGemini } from './gemini-survey.js';

/** The table and column a project's `logs.json` entries of a conversation are reported under. */
const LOG_ROWS = { table: 'entries', column: 'sessionId' } as const;

/** A `logs.json` naming the id that a purge leaves, with why. */
interface KeptLog {
  path: string;
  reason: string;
}

/**
 * The Gemini CLI store over `ports`: chat files `tmp/<short>/chats/session-*.jsonl` found by their first line's
 * `sessionId`, the session's `tmp/<short>/<id>/` dir, and its entries of the project's shared `logs.json` (rewritten
 * without them while no live gemini process works in that project). Every id is canonical.
 */
export function geminiStore(ports: Ports, def: AgentDefinition): AgentStore {
  const { fs, proc } = ports;
  const home = async (ctx: HomeDiscoveryContext): Promise<GeminiHome> => geminiHome(await agentEnv(fs, proc, ctx), ctx.home);
  // The parts of one purge plan ask at once (pathPurge): they share one survey, and one look at the processes per survey.
  const survey = shareWhileRunning(
    (id: string, ctx: HomeDiscoveryContext) => JSON.stringify([id, ctx.home, ctx.env ?? null]),
    async (id: string, ctx: HomeDiscoveryContext): Promise<GeminiSurvey | null> => {
      const h = await home(ctx);
      return h.kind === 'ok' ? surveyGemini(fs, h.root, id) : null;
    },
  );
  const dirsOf = async (projects: readonly GeminiProject[]): Promise<string[]> =>
    Promise.all(projects.flatMap((p) => (p.workspace === null ? [] : [realOr(fs, p.workspace)])));

  // Which logs.json files of the survey a purge rewrites now, and which it leaves (a live gemini in the project, not the CLI's array).
  const splitLogs = objectMemo((s: GeminiSurvey) => splitLogsOf(s));
  const splitLogsOf = async (s: GeminiSurvey): Promise<{ rewrite: GeminiLogEntries[]; kept: KeptLog[] }> => {
    const rewrite: GeminiLogEntries[] = [];
    const kept: KeptLog[] = [];
    const snapshot = s.logs.some((l) => l.parsed) ? await proc.snapshot() : [];
    for (const l of s.logs) {
      if (!l.parsed) {
        kept.push({ path: l.path, reason: 'not the JSON array Gemini CLI writes: left as it is' });
        continue;
      }
      const live = await geminiProcessesIn(proc, snapshot, await dirsOf([l.project]));
      if (live.length === 0) rewrite.push(l);
      else kept.push({ path: l.path, reason: `entries of the conversation kept: a live gemini process (pid ${live.map((x) => x.proc.pid).join(', ')}) uses this project and rewrites the file` });
    }
    return { rewrite, kept };
  };

  const artifactPaths = async (id: string, ctx: HomeDiscoveryContext): Promise<ArtifactPath[]> => {
    const s = await survey(id, ctx);
    // The session dir first, then the chat files: the first line of a chat file is what ties what is left to the id.
    return s === null ? [] : [...s.sessionDirs, ...s.chats].map((path) => ({ root: s.root, path }));
  };
  const rowsOf = (l: GeminiLogEntries, count = l.count): Artifact => ({ kind: 'rows', db: l.path, ...LOG_ROWS, count });

  // Why a purge of the id removes nothing: a home that cannot be used, a file of an unknown layout naming the id.
  const refusals = async (id: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> => {
    const h = await home(ctx);
    if (h.kind !== 'ok') return [{ kind: 'dir', path: h.value, reason: h.reason }];
    return (await surveyGemini(fs, h.root, id)).refused;
  };

  const purge = pathPurge(fs, {
    agent: def.name,
    artifactPaths,
    async dbRows(id, ctx) {
      const s = await survey(id, ctx);
      return s === null ? [] : (await splitLogs(s)).rewrite.map((l) => rowsOf(l));
    },
    async purgeDbRows(id, ctx) {
      const s = await survey(id, ctx);
      if (s === null) return [];
      const out: Artifact[] = [];
      for (const l of (await splitLogs(s)).rewrite) {
        const dropped = await dropLogEntries(fs, l.path, id);
        if (dropped > 0) out.push(rowsOf(l, dropped));
      }
      return out;
    },
    purgeRefusals: (id, ctx) => refusals(id, ctx),
    mentions: (id, ctx) => mentions(id, ctx),
    async purgeNotes(id, ctx) {
      const s = await survey(id, ctx);
      return s === null ? [] : (await splitLogs(s)).kept.map((k) => `${k.path}: ${k.reason}`);
    },
  });

  // Shared files still naming the id that a purge leaves: a logs.json a live gemini uses, or one of another shape.
  const mentions = async (id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    try {
      const s = await survey(id, ctx);
      return s === null ? [] : (await splitLogs(s)).kept.map((k): Artifact => ({ kind: 'file', path: k.path }));
    } catch {
      return [];
    }
  };

  // The ids of the chat files of the workspace's projects, one per conversation, newest first.
  const workspaceConversations = async (h: GeminiHome, workspace: string): Promise<Array<{ id: string; mtimeMs: number }>> => {
    if (h.kind !== 'ok') return [];
    const projects = await projectsOfWorkspace(fs, await geminiProjects(fs, h.root), workspace);
    const chats = (await Promise.all(projects.map((p) => projectChats(fs, p)))).flatMap((c) => c.chats);
    return conversationsOf(chats);
  };

  return {
    // Conversations of this workspace's projects (by realpath), newest first, last written at or after `ctx.epoch`.
    async discover(ctx) {
      try {
        const floor = ctx.epoch !== undefined && Number.isFinite(ctx.epoch) ? ctx.epoch * 1000 : undefined;
        const found = await workspaceConversations(await home(ctx), ctx.workspace);
        return found.filter((c) => floor === undefined || c.mtimeMs >= floor).map((c) => c.id);
      } catch {
        return [];
      }
    },
    // A chat file of the id in a project of its workspace: each workspace's projects read once for the batch.
    async verifyMany(queries, ctx) {
      try {
        const h = await home(ctx);
        const byWorkspace = new Map<string, Promise<Set<string>>>();
        const idsOf = (w: string): Promise<Set<string>> => {
          let seen = byWorkspace.get(w);
          if (seen === undefined) {
            seen = workspaceConversations(h, w).then((cs) => new Set(cs.map((c) => c.id)));
            byWorkspace.set(w, seen);
          }
          return seen;
        };
        return await Promise.all(queries.map(async (q) => (await idsOf(q.workspace)).has(q.id)));
      } catch {
        return queries.map(() => false);
      }
    },
    async holders(id, ctx) {
      const s = await survey(id, ctx).catch(() => null);
      const dirs = [...new Set([...(await dirsOf(s?.projects ?? [])), await realOr(fs, ctx.workspace)])];
      return findInUseHolders(proc, { agent: def.name, sessionEnvVars: def.sessionEnvVars, id, heldPaths: [], extra: (snapshot) => geminiInUse(proc, snapshot, id, dirs) });
    },
    planPurge: purge.planPurge,
    // A refused purge removes nothing (its plan says why); otherwise the logs.json entries, the session dir, the chat files.
    async executePurge(id, ctx) {
      if ((await refusals(id, ctx)).length > 0) return { removed: [] };
      return purge.executePurge(id, ctx);
    },
    async residual(id, ctx) {
      const [left, refused] = await Promise.all([purge.residual(id, ctx), refusals(id, ctx)]);
      return [...left, ...refused];
    },
    mentions,
    // With no chat file left (the CLI's `--delete-session` leaves the prompts in logs.json; a purge stopped part-way),
    // the workspaces of the projects what is left sits in answer a scoped purge. Null while a chat file is there.
    async remainsBelonging(id, ctx) {
      const s = await survey(id, ctx).catch(() => null);
      if (s === null || s.chats.length > 0 || s.projects.length === 0) return null;
      const recorded = s.projects.filter((p) => p.workspace !== null);
      if (recorded.length === 0) return 'unrecorded';
      return (await projectsOfWorkspace(fs, recorded, ctx.workspace)).length === recorded.length ? 'here' : 'elsewhere';
    },
    async hasArtifacts(id, ctx) {
      try {
        const s = await survey(id, ctx);
        return s !== null && (s.chats.length > 0 || s.sessionDirs.length > 0 || s.refused.length > 0 || s.logs.some((l) => l.parsed));
      } catch {
        return false;
      }
    },
    // A read-only look at the Gemini CLI root (never runs the CLI, never looks at agy's antigravity-cli/).
    inspect: async (ctx) => inspectGeminiHome(fs, await home(ctx)),
  };
}

import type { AgentDefinition } from '../contract/agent-definition.js';
import { join } from 'node:path';
import type { Ports } from '../../ports/index.js';
import type { ProcessInfo } from '../../ports/process.js';
import type { Artifact, LeftArtifact } from '../../purge/artifact.js';
import { agentEnv } from '../common/agent-env.js';
import { findInUseHolders } from '../common/in-use.js';
import type { AgentStore, StorePurgeOutcome } from '../contract/agent-store.js';
import type { AdapterPurgePlan, HomeDiscoveryContext, InUseHolder, PreflightResult } from '../types.js';
import { type GrokHome, grokHome } from './grok-home.js';
import { grokInUse } from './grok-in-use.js';
import { inspectGrokHome } from './grok-inspect.js';
import { grokMentions } from './grok-mentions.js';
import { grokParents } from './grok-parents.js';
import { grokArtifacts, grokLeft, purgeGrokSurvey } from './grok-purge.js';
import { listDirOrNull } from '../common/read-regular.js';
import { GROK_REMOTE_NOTE } from './grok-remote-note.js';
import { type GrokSurvey, surveyGrok } from './grok-survey.js';
import { type GrokVerifyQuery, grokVerifyMany } from './grok-verify-many.js';
import { grokWorkspaceSessions } from './grok-workspace-sessions.js';

/** Long enough for a cold `grok --version`; a CLI that takes longer is taken as not able to start. */
const AUTH_TIMEOUT_MS = 15_000;

/**
 * The grok store over `ports`: sessions under `$GROK_HOME/sessions/<urlencoded cwd>/<id>/`, the search database's rows,
 * subagent children and relocation files (see the definition). Every id is canonical.
 */
export function grokStore(ports: Ports, def: AgentDefinition): AgentStore {
  const { fs, proc } = ports;
  // The ports' clock: which bucket cwds resolve to themselves is remembered only once their parents have settled by it.
  const now = (): number => ports.clock.now();
  const home = async (ctx: HomeDiscoveryContext): Promise<GrokHome> => grokHome(await agentEnv(fs, proc, ctx), ctx.home);
  const survey = async (id: string, ctx: HomeDiscoveryContext, rows = true): Promise<GrokSurvey | null> => {
    const h = await home(ctx);
    return h.kind === 'ok' ? surveyGrok(fs, h.root, id, { rows }) : null;
  };
  const notes = async (): Promise<string[]> => [GROK_REMOTE_NOTE];

  // Every session dir of the conversation and its descendants (a shell cd'd into one holds it), their top-level files, and the relocation lock.
  const heldPaths = async (id: string, ctx: HomeDiscoveryContext): Promise<string[]> => {
    const s = await survey(id, ctx, false).catch(() => null);
    if (s === null) return [];
    const out: string[] = [];
    for (const d of s.dirs) {
      if (d.kind !== 'dir') continue;
      out.push(d.path);
      for (const e of (await listDirOrNull(fs, d.path)) ?? []) if (e.kind === 'file') out.push(join(d.path, e.name));
    }
    for (const f of s.files) if (f.kind === 'file' && f.path.endsWith('.lock')) out.push(f.path);
    return out;
  };

  // Live `active_sessions.json` entries, the caller's own grok session, and command lines naming a descendant or parent.
  const extraInUse = async (id: string, ctx: HomeDiscoveryContext, snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> => {
    try {
      const h = await home(ctx);
      if (h.kind !== 'ok') return [];
      const s = await surveyGrok(fs, h.root, id, { rows: false });
      // A subagent child is written by its parent's process: a live parent uses it too.
      const parents = s.subagent ? (await grokParents(fs, h.sessions, id)).map((p) => p.id) : [];
      return await grokInUse(fs, h.root, [...s.ids, ...parents], snapshot, proc.selfPid());
    } catch {
      return [];
    }
  };

  const verify = async (batch: readonly GrokVerifyQuery[], ctx: HomeDiscoveryContext): Promise<boolean[]> => {
    try {
      const h = await home(ctx);
      if (h.kind === 'ok' && batch.length > 0) return await grokVerifyMany(fs, h.sessions, batch, now);
    } catch {
      // A context whose home cannot be told verifies nothing.
    }
    return batch.map(() => false);
  };

  return {
    // Visible sessions of this workspace (subagent children and hidden ones skipped), newest first, active at or after `ctx.epoch`.
    async discover(ctx) {
      try {
        const h = await home(ctx);
        if (h.kind !== 'ok') return [];
        const floor = ctx.epoch !== undefined && Number.isFinite(ctx.epoch) ? ctx.epoch * 1000 : undefined;
        const found = await grokWorkspaceSessions(fs, h.sessions, ctx.workspace, now);
        return found.filter((s) => !s.hidden && (floor === undefined || (s.activeMs !== null && s.activeMs >= floor))).map((s) => s.id);
      } catch {
        return [];
      }
    },
    // A visible session of its workspace under each id: `sessions/` listed once for the batch, each workspace's buckets found once.
    verifyMany: (queries, ctx) => verify(queries, ctx),
    async holders(id, ctx) {
      return findInUseHolders(proc, { agent: def.name, sessionEnvVars: def.sessionEnvVars, id, heldPaths: await heldPaths(id, ctx), extra: (snapshot) => extraInUse(id, ctx, snapshot) });
    },
    async planPurge(id, ctx): Promise<AdapterPurgePlan> {
      const plan: AdapterPurgePlan = { artifacts: [], refused: [], mentions: [], notes: [] };
      try {
        const h = await home(ctx);
        if (h.kind !== 'ok') return { ...plan, refused: [{ kind: 'dir', path: h.value, reason: h.reason }] };
        const s = await surveyGrok(fs, h.root, id);
        return { artifacts: grokArtifacts(s), refused: [...s.refused, ...s.dbRefused], mentions: await grokMentions(fs, h.root, id, s.subagent || s.dirs.length === 0), notes: await notes() };
      } catch (err) {
        return { ...plan, refused: [{ kind: 'dir', path: ctx.home, reason: `grok survey failed (${err instanceof Error ? err.message : String(err)})` }] };
      }
    },
    // Removes the search rows, the session dirs (subagent descendants first) and the relocation files. Never throws.
    async executePurge(id, ctx): Promise<StorePurgeOutcome> {
      try {
        const s = await survey(id, ctx);
        if (s === null) return { removed: [] };
        const done = await purgeGrokSurvey(fs, proc, s);
        return { removed: done.purged, rowFailures: done.rowFailures };
      } catch {
        return { removed: [] };
      }
    },
    // Paths and rows still there, and what was refused (with why); the purge's failed row deletes follow while rows remain.
    async residual(id, ctx): Promise<LeftArtifact[]> {
      try {
        const h = await home(ctx);
        if (h.kind !== 'ok') return [{ kind: 'dir', path: h.value, reason: h.reason }];
        return await grokLeft(fs, await surveyGrok(fs, h.root, id));
      } catch (err) {
        return [{ kind: 'dir', path: ctx.home, reason: `grok residual check failed: ${err instanceof Error ? err.message : String(err)}` }];
      }
    },
    // True when a session dir, relocation file or search row of the id exists, or something named by it was refused.
    async hasArtifacts(id, ctx) {
      try {
        const s = await survey(id, ctx);
        if (s === null) return false;
        return s.dirs.length > 0 || s.files.length > 0 || s.rows.length > 0 || s.refused.length > 0;
      } catch {
        return false;
      }
    },
    // Shared records still naming the id: prompt history lines, `active_sessions.json`, `worktrees.db` rows, a parent's link.
    async mentions(id, ctx): Promise<Artifact[]> {
      try {
        const h = await home(ctx);
        if (h.kind !== 'ok') return [];
        const s = await surveyGrok(fs, h.root, id);
        // Once its own dir is gone, only a parent's link may still say the id was a subagent child.
        return await grokMentions(fs, h.root, id, s.subagent || s.dirs.length === 0);
      } catch {
        return [];
      }
    },
    // What a person should know about a grok purge: a remote (cloud) copy, if synced, is out of reach.
    purgeNotes: notes,
    // A read-only look at the grok home (never runs the CLI): buckets, sessions, search database layout, problems.
    inspect: async (ctx) => inspectGrokHome(fs, await home(ctx)),
    // `grok --version` under the context's home must exit 0; its exit code is the create's (1 when it cannot run at all).
    async preflight(ctx): Promise<PreflightResult> {
      try {
        const env = { ...(ctx.env ?? proc.env()), HOME: ctx.home };
        const res = await proc.run('grok', ['--version'], { env, timeoutMs: AUTH_TIMEOUT_MS });
        return res.failed ? { ok: false, exitCode: res.exitCode !== null && res.exitCode !== 0 ? res.exitCode : 1 } : { ok: true, exitCode: 0 };
      } catch {
        return { ok: false, exitCode: 1 };
      }
    },
  };
}

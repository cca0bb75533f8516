import type { AgentDefinition } from '../contract/agent-definition.js';
import { describeError } from '../../errors.js';
import type { Ports } from '../../ports/index.js';
import type { ProcessInfo } from '../../ports/process.js';
import { provingDirLook } from '../../validation/home-proof.js';
import { agentEnv } from '../common/agent-env.js';
import { findInUseHolders } from '../common/in-use.js';
import type { AgentStore, StoreVerifyQuery } from '../contract/agent-store.js';
import type { HomeDiscoveryContext, InUseHolder, StoreReport } from '../types.js';
import { type HermesConversation, HermesGraph } from './hermes-conversation.js';
import { hermesDiscover } from './hermes-discover.js';
import { canonicalHermesId } from './hermes-ids.js';
import { hermesChainHolders } from './hermes-in-use.js';
import { inspectHermesStores } from './hermes-inspect.js';
import { locateHermes } from './hermes-located.js';
import { type HermesStore, hermesStores } from './hermes-paths.js';
import { readHermesSessions } from './hermes-sessions.js';
import { hermesPurgeParts, type HermesStoreCore } from './hermes-store-purge.js';
import { hermesVerifyBatch } from './hermes-verify.js';

const SIDECARS = ['-wal', '-shm', '-journal'] as const;

/** Every Hermes store of the context, the active one first (`HERMES_HOME`, else `<home>/.hermes`, then each profile). */
export async function hermesStoresOf(ports: Ports, ctx: HomeDiscoveryContext): Promise<HermesStore[]> {
  return hermesStores(ports.fs, ctx.home, await agentEnv(ports.fs, ports.proc, ctx));
}

/**
 * The Hermes store over a set of ports (see the `hermes` definition): every session a row of a shared SQLite `state.db`
 * per profile, a compression chain one conversation under its tip. Remembers, per store object, the ids of each
 * conversation it purged (its rows gone, the residual still knows the chain).
 */
export function hermesStore(ports: Ports, def: AgentDefinition): AgentStore {
  const { fs, proc } = ports;
  const env = (ctx: HomeDiscoveryContext): Promise<Readonly<Record<string, string | undefined>>> => agentEnv(fs, proc, ctx);
  const core: HermesStoreCore = {
    ports,
    now: () => ports.clock.now(),
    purged: new Map(),
    stores: (ctx) => hermesStoresOf(ports, ctx),
    locate: async (c, ctx) => locateHermes(fs, await core.stores(ctx), c, core.purged.get(c)?.ids ?? []),
  };
  const claimedBySibling = (c: string, ctx: HomeDiscoveryContext): boolean =>
    (ctx.siblingClaimedIds ?? []).some((s) => typeof s === 'string' && canonicalHermesId(s) === c);

  // Every Hermes process keeps state.db open: a holder of it is no evidence for one session (as with OpenCode's service).
  // Only while the conversation's tip was never closed (`ended_at` null: live, or crashed) does a holder count — a
  // refusal can be retried, deleted rows cannot come back.
  const heldPaths = async (c: string, ctx: HomeDiscoveryContext): Promise<string[]> => {
    const out: string[] = [];
    for (const store of await core.stores(ctx)) {
      const conv = new HermesGraph(await readHermesSessions(fs, store.db)).conversation(c);
      if (conv?.tip.open === true) out.push(store.db, ...SIDECARS.map((s) => store.db + s));
    }
    return out;
  };
  // Command lines naming another id of the chain or a unique `--resume` prefix of one, and the caller's
  // `HERMES_SESSION_ID` naming any.
  const extraInUse = async (c: string, ctx: HomeDiscoveryContext, snapshot: readonly ProcessInfo[]): Promise<InUseHolder[]> => {
    const found: InUseHolder[] = [];
    for (const store of await core.stores(ctx)) {
      const graph = new HermesGraph(await readHermesSessions(fs, store.db));
      const chain = graph.conversation(c)?.chain ?? [c];
      found.push(...hermesChainHolders(proc, snapshot, { id: c, chain, allIds: graph.rows.map((r) => r.id), sessionEnvVars: def.sessionEnvVars }));
    }
    return found;
  };

  return {
    // Conversations of this workspace (by its root's or tip's `cwd` or `git_repo_root`; an ACP session, its cwd only in
    // `model_config`, is not offered, as Hermes' own listing does not show it) under their tip ids, newest tip first.
    discover: (ctx) => hermesDiscover(fs, core.stores(ctx), ctx.workspace, { epoch: ctx.epoch, now: core.now, canonical: canonicalHermesId, dirLook: provingDirLook(fs, ctx) }),
    // Any id of a conversation whose root or tip is of the workspace; `discover` mode never accepts one whose chain another
    // row records. Each `state.db` opened and probed once for the batch, by-id reads on it (each distinct id once).
    async verifyMany(queries: readonly StoreVerifyQuery[], ctx: HomeDiscoveryContext, mode: 'verify' | 'discover'): Promise<boolean[]> {
      const refuses = mode === 'discover' ? (conv: HermesConversation) => conv.chain.some((m) => claimedBySibling(canonicalHermesId(m) ?? m, ctx)) : undefined;
      return hermesVerifyBatch(fs, ctx.home, await env(ctx), queries, { now: core.now, refuses, dirLook: provingDirLook(fs, ctx) });
    },
    // The id the conversation continues under now (the tip of its compression chain, canonical), or null when no store
    // has the id. Capture and AutoPin follow a pinned root to it.
    async currentId(c: string, ctx: HomeDiscoveryContext): Promise<string | null> {
      try {
        for (const store of await core.stores(ctx)) {
          const conv = new HermesGraph(await readHermesSessions(fs, store.db)).conversation(c);
          if (conv !== undefined) return canonicalHermesId(conv.tip.id);
        }
        return null;
      } catch {
        return null;
      }
    },
    holders: async (c, ctx) => findInUseHolders(proc, { agent: def.name, sessionEnvVars: def.sessionEnvVars, id: c, heldPaths: await heldPaths(c, ctx), extra: (snapshot) => extraInUse(c, ctx, snapshot) }),
    ...hermesPurgeParts(core),
    // A read-only look at every Hermes store (never runs the CLI): schema versions, layout verdicts, counts, problems.
    async inspect(ctx: HomeDiscoveryContext): Promise<StoreReport> {
      try {
        return await inspectHermesStores(fs, await core.stores(ctx));
      } catch (err) {
        return { agent: 'hermes', presence: 'present', root: null, layout: null, known: false, counts: {}, problems: [`inspection failed: ${describeError(err)}`], readable: false };
      }
    },
  };
}

/**
 * The profile whose store holds the id (`default` for `HERMES_HOME`, else `<home>/.hermes`), or null when none does or
 * the id is no Hermes id. Never throws.
 */
export async function hermesProfileOf(ports: Ports, id: string, ctx: HomeDiscoveryContext): Promise<string | null> {
  const c = typeof id === 'string' ? canonicalHermesId(id) : null;
  if (c === null) return null;
  try {
    for (const store of await hermesStoresOf(ports, ctx)) {
      if (new HermesGraph(await readHermesSessions(ports.fs, store.db)).find(c) !== undefined) return store.profile;
    }
    return null;
  } catch {
    return null;
  }
}

import { psHint } from '../common/in-use.js';
import { defineAgent } from '../contract/agent-definition.js';
import { agyIdSpellings as uuidSpellings, canonicalAgyId } from './agy-ids.js';
import { agyDbPath, agyLockPath, agyPaths } from './agy-paths.js';

/**
 * The Antigravity CLI (`agy`, post-discovered: agy picks the conversation id and capture finds it on disk):
 * conversations under `<GEMINI_HOME>/antigravity-cli/` (`GEMINI_HOME` defaults to `<home>/.gemini`) — a SQLite database
 * per conversation recording its own workspace, with its sidecars, a `.pb` store, a brain dir, an annotation and a
 * presence lock; subagent conversations below it; the ACP server's copies under `<GEMINI_HOME>/antigravity-acp/`; and
 * shared files (a summaries index, the prompt history, a last-conversation cache that is only a hint).
 * @example
 * ```ts
 * const adapter = createAdapter(agy, nodePorts());
 * const ids = await adapter.discover({ workspace: '/repo', home: '/home/me' }); // newest first
 * ```
 * @public
 */
export const agy = defineAgent({
  name: 'agy',
  ownKey: 'agy_conversation_id_own',
  idLifecycle: 'post_discovered',
  ids: { shape: 'uuid', canonical: canonicalAgyId, spellings: uuidSpellings, caseInsensitive: true },
  // agy exports the conversation id to its tool shells.
  sessionEnvVars: ['ANTIGRAVITY_CONVERSATION_ID'],
  launch: { args: () => [], resumeArgs: (id) => ['--conversation', id], herdrKind: 'agy' },
  // Discovery, verification and ownership read files only (no spawn, no write): the home's stat runs alongside.
  reads: { kind: 'files' },
  // A `ps` line for the id and an `lsof` line for its presence lock and database.
  inUseHints(id, ctx) {
    const p = agyPaths(ctx.home, ctx.env ?? {});
    return [psHint(id), `lsof ${agyLockPath(p, id)} ${agyDbPath(p, id)}`];
  },
  store: async (ports, def) => (await import('./agy-store.js')).agyStore(ports, def),
});

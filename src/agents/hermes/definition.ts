import { defineAgent } from '../contract/agent-definition.js';
import { psHint } from '../common/in-use.js';
import { canonicalHermesId, hermesIdSpellings } from './hermes-ids.js';
import { hermesPaths } from './hermes-paths.js';

/**
 * Hermes (post-discovered). Every session is a row of one shared SQLite `state.db` (`HERMES_HOME`, else
 * `<home>/.hermes`; named profiles `<home>/.hermes/profiles/<name>/state.db` are searched too), the real schema 22 with
 * its FTS5 tables and triggers, or a later one that only adds tables/columns; a table naming a session by a column this
 * adapter does not know makes the layout unknown (read, never purged). A compression chain is one conversation, offered
 * under its tip (the id Hermes resumes now; `currentId` follows a recorded root to it); delegate children are never
 * offered. A purge deletes the whole conversation (chain, branch and delegate children) in one transaction with foreign
 * keys and `secure_delete` on, and its per-session files under `sessions/`; never the database file or its sidecars.
 * @example
 * ```ts
 * const adapter = createAdapter(hermes, nodePorts());
 * const ids = await adapter.discover({ workspace: '/repo', home: '/home/me', epoch: 1767225600 }); // tips, newest first
 * ```
 * @public
 */
export const hermes = defineAgent({
  name: 'hermes',
  ownKey: 'hermes_conversation_id_own',
  idLifecycle: 'post_discovered',
  // Stamped ids (`YYYYMMDD_HHMMSS_<hex>`), cron ids and uuids (ACP, API); a conversation continues under a new id after
  // a compression, so the store answers `currentId`.
  ids: { shape: 'hermes', canonical: canonicalHermesId, spellings: hermesIdSpellings, moves: true },
  // Hermes exports the session id to its tool shells (the tip's, after compression).
  sessionEnvVars: ['HERMES_SESSION_ID'],
  launch: {
    // Hermes picks its own session id: a new session takes no argument.
    args: () => [],
    resumeArgs: (id) => ['--resume', id],
    herdrKind: 'hermes',
  },
  // Discovery, verification and ownership read files only (no spawn), and look at each store's directory (inside the home
  // by default), which proves the home a directory.
  reads: { kind: 'files', provesHome: true },
  // A `ps` line for the id (Hermes' `--resume` also takes a unique prefix or a title), and one for any Hermes process.
  inUseHints: (id, ctx) => {
    const { db } = hermesPaths(ctx.home, ctx.env ?? {});
    return [psHint(id), `ps -axww | grep -e 'hermes.*--resume' -e 'HERMES_SESSION_ID'  # ${db} is held by every Hermes process`];
  },
  store: async (ports, def) => (await import('./hermes-store.js')).hermesStore(ports, def),
});

import { nodeCrypto } from '../../lazy-crypto.js';
import { psHint } from '../common/in-use.js';
import { defineAgent } from '../contract/agent-definition.js';
import { grokActiveSessionsPath } from './grok-active-sessions.js';
import { grokHome } from './grok-home.js';
import { canonicalGrokId, grokIdSpellings as uuidSpellings } from './grok-ids.js';

/**
 * Grok Build (`grok`, pre-assigned: the library chooses the uuid with `--session-id`/`-s`, `grok --resume <id>` resumes
 * it). A conversation is `$GROK_HOME/sessions/<urlencoded cwd>/<id>/` (home `~/.grok` by default) with its `summary.json`,
 * a row of `sessions/session_search.sqlite`, and its subagent children's own session dirs, found through
 * `subagents/<child>/meta.json`. A purge removes all of them (grok's own delete misses the children) and lists the shared
 * records still naming the id (prompt history, `active_sessions.json`, `worktrees.db`) as mentions.
 * @example
 * ```ts
 * const adapter = createAdapter(grok, nodePorts());
 * const [newest] = await adapter.discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export const grok = defineAgent({
  name: 'grok',
  ownKey: 'grok_session_id_own',
  idLifecycle: 'pre_assigned',
  ids: { shape: 'uuid', canonical: canonicalGrokId, spellings: uuidSpellings, caseInsensitive: true },
  // Grok gives GROK_SESSION_ID to its hooks and MCP servers (its tool shells get `GROK_AGENT=1` instead).
  sessionEnvVars: ['GROK_SESSION_ID'],
  launch: {
    // `--session-id` (grok's `-s`) names a new session only: grok refuses an id that already has one.
    args: (id) => (id === null ? [] : ['--session-id', id]),
    resumeArgs: (id) => ['--resume', id],
    mintId: () => nodeCrypto().randomUUID(),
    herdrKind: 'grok',
  },
  // Discovery, verification and ownership read files only (no spawn, no write): the home's stat runs alongside.
  reads: { kind: 'files' },
  // A `ps` line for the id and a look at grok's `active_sessions.json`.
  inUseHints(id, ctx, own) {
    const home = grokHome(ctx.env ?? (own['HOME'] === ctx.home ? own : {}), ctx.home);
    return home.kind === 'ok' ? [psHint(id), `cat ${grokActiveSessionsPath(home.root)}`] : [psHint(id)];
  },
  store: async (ports, def) => (await import('./grok-store.js')).grokStore(ports, def),
});

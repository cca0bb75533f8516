import { join } from 'node:path';
import { defineAgent } from '../contract/agent-definition.js';
import { psHint, shellQuote } from '../common/in-use.js';
import { canonicalCodexId, codexIdSpellings } from './codex-ids.js';
import { codexHome } from './codex-home.js';

/**
 * The Codex CLI (post-discovered UUID v7 thread ids): rollouts `sessions/YYYY/MM/DD/rollout-<ts>-<id>.jsonl` and
 * `archived_sessions/`, the `threads` table of `state_<N>.sqlite` and every other Codex database's thread columns,
 * `shell_snapshots/<id>.*` and `thread-writer-locks/<id>.lock`; resumed with `codex resume <id>`.
 * @example
 * ```ts
 * const codexAdapter = createAdapter(codex, nodePorts());
 * ```
 * @public
 */
export const codex = defineAgent({
  name: 'codex',
  ownKey: 'codex_session_id_own',
  // Codex picks the thread id; capture finds it on disk.
  idLifecycle: 'post_discovered',
  ids: { shape: 'uuid', canonical: canonicalCodexId, spellings: codexIdSpellings, caseInsensitive: true },
  // Codex 0.171 exports both to its tool shells (= the thread id); the in-use check reads both.
  sessionEnvVars: ['CODEX_THREAD_ID', 'CODEX_SESSION_ID'],
  launch: {
    args: () => [],
    resumeArgs: (id) => ['resume', id],
    herdrKind: 'codex',
  },
  // Discovery, verification and ownership read files only (no spawn), and their look at the store's directory (inside
  // the home by default) proves the home a directory.
  reads: { kind: 'files', provesHome: true },
  // A `ps` line for the id and an `lsof` line for its writer lock.
  inUseHints(id, ctx, own) {
    const env = ctx.env ?? (own['HOME'] === ctx.home ? own : {});
    return [psHint(id), `lsof ${shellQuote(join(codexHome(env, ctx.home).locks, `${id}.lock`))}`];
  },
  store: async (ports, def) => (await import('./codex-store.js')).codexStore(ports, def),
});

import { nodeCrypto } from '../../lazy-crypto.js';
import { psHint } from '../common/in-use.js';
import { defineAgent } from '../contract/agent-definition.js';
import { canonicalUuid, uuidSpellings } from '../contract/uuid.js';

/**
 * Gemini CLI (`gemini`, pre-assigned uuid v4 ids: `--session-id <id>` starts, `--resume <id>` resumes). A conversation is
 * its chat files `~/.gemini/tmp/<short>/chats/session-<time>-<8 hex>.jsonl` (found by their first line's `sessionId`; a
 * resume may add a second one), its `tmp/<short>/<id>/` dir, and its entries of the project's shared `logs.json` (removed
 * while no live gemini works in the project, else reported). `<short>` maps back to a workspace through `.project_root`
 * and `projects.json`; the root is `$GEMINI_CLI_HOME/.gemini` when that variable is set. Agy's `antigravity-cli/` beside
 * it is never read.
 * @example
 * ```ts
 * const adapter = createAdapter(gemini, nodePorts());
 * const [newest] = await adapter.discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export const gemini = defineAgent({
  name: 'gemini',
  ownKey: 'gemini_session_id_own',
  idLifecycle: 'pre_assigned',
  ids: { shape: 'uuid', canonical: canonicalUuid, spellings: uuidSpellings, caseInsensitive: true },
  // Gemini gives GEMINI_SESSION_ID to its hooks; its tool shells get only `GEMINI_CLI=1` (the store finds their gemini ancestor).
  sessionEnvVars: ['GEMINI_SESSION_ID'],
  launch: {
    args: (id) => (id === null ? [] : ['--session-id', id]),
    resumeArgs: (id) => ['--resume', id],
    mintId: () => nodeCrypto().randomUUID(),
    herdrKind: 'gemini',
  },
  // Discovery, verification and ownership read files only (no spawn, no write): the home's stat runs alongside.
  reads: { kind: 'files' },
  // Nothing on disk marks a live session: the process table is the evidence.
  inUseHints: (id) => [psHint(id), 'ps -axww -o pid,args | grep gemini'],
  store: async (ports, def) => (await import('./gemini-store.js')).geminiStore(ports, def),
});

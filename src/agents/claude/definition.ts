import { nodeCrypto } from '../../lazy-crypto.js';
import { defineAgent } from '../contract/agent-definition.js';
import { claudeHintsFor } from './claude-hints.js';
import { canonicalClaudeId, claudeIdSpellings } from './claude-ids.js';

/**
 * Claude Code (pre-assigned uuid v4 ids): transcripts `projects/<key>/<id>.jsonl` verified by their records' `cwd`, the
 * conversation's dirs and files across the config root and the temp root, live-session files, background-job dirs; shared
 * files (`.claude.json`, its backups, `history.jsonl`) are only reported. An unknown store naming the id stops a purge.
 * @example
 * ```ts
 * const adapter = createAdapter(claude, nodePorts());
 * const [newest] = await adapter.discover({ workspace: '/repo', home: '/home/me' }); // newest first
 * ```
 * @public
 */
export const claude = defineAgent({
  name: 'claude',
  ownKey: 'claude_session_id_own',
  idLifecycle: 'pre_assigned',
  ids: { shape: 'uuid', canonical: canonicalClaudeId, spellings: claudeIdSpellings, caseInsensitive: true },
  // Claude exports the session id to its tool shells.
  sessionEnvVars: ['CLAUDE_CODE_SESSION_ID'],
  launch: {
    // mam passes a fresh uuid v4 to `claude --session-id`; `claude --resume <id>` resumes.
    args: (id) => (id === null ? [] : ['--session-id', id]),
    resumeArgs: (id) => ['--resume', id],
    mintId: () => nodeCrypto().randomUUID(),
    herdrKind: 'claude',
  },
  // Discovery, verification and ownership read files only (no spawn, no write): the home's stat runs alongside.
  reads: { kind: 'files' },
  // The real `sessions/` dir first, then every process naming the id.
  inUseHints: claudeHintsFor,
  store: async (ports, def) => (await import('./claude-store.js')).claudeStore(ports, def),
});

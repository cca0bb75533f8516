import { defineAgent } from '../contract/agent-definition.js';
import { psHint } from '../common/in-use.js';
import { canonicalOpencodeId } from './opencode-ids.js';
import { OPENCODE_INPUT_PLACEHOLDER, OPENCODE_INPUT_PLACEHOLDER_PATTERN } from './opencode-placeholder.js';

/**
 * OpenCode (post-discovered, ids `ses_…`): sessions in the shared `opencode.db` — the 1.x `session` table (OpenCode 1.18)
 * and/or the 2.x `session_v2` table — plus the shared log and, in old homes, legacy JSON storage. A database with neither
 * table is an unknown layout: discovery finds nothing there and a purge refuses.
 * @example
 * ```ts
 * const ids = await createAdapter(opencode, nodePorts()).discover({ workspace: '/repo', home: '/home/me' });
 * ```
 * @public
 */
export const opencode = defineAgent({
  name: 'opencode',
  ownKey: 'opencode_session_id_own',
  // OpenCode picks the session id (`ses_…`); capture finds it in the database.
  idLifecycle: 'post_discovered',
  // `ses_` ids are compared exactly (never case-folded) and searched for as they are.
  ids: { shape: 'opencode', canonical: canonicalOpencodeId },
  // Checked in the caller's environment; OpenCode 1.18.33 exports none to its tool shells (only `OPENCODE_PID`, which
  // the store's holders use), as the real-CLI suite shows.
  sessionEnvVars: ['OPENCODE_SESSION_ID'],
  launch: {
    // Its 2.x TUI rejects `--agent`; `--standalone` keeps the per-user service out of it.
    args: () => ['--auto', '--standalone'],
    resumeArgs: (id) => ['--auto', '--standalone', '--session', id],
    herdrKind: 'opencode',
    // The literal start of the TUI's empty-input text, `Ask anything…`.
    inputPlaceholder: OPENCODE_INPUT_PLACEHOLDER,
    // The closing quote is optional because a narrow box cuts the example.
    inputPlaceholderPattern: OPENCODE_INPUT_PLACEHOLDER_PATTERN,
    // The idle TUI keeps an `opencode` child process.
    residentChildren: ['opencode'],
  },
  // The read-only methods read while the home is checked; the one spawn they may make (`opencode debug paths`) waits for
  // the check. Discovery and verification look at the store's directory (inside the home by default), which proves the
  // home a directory.
  reads: { kind: 'files-then-spawn', provesHome: true },
  inUseHints: (id) => [
    psHint(id),
    // OpenCode keeps every session in one database: a holder counts for a session only when its cwd shows it can reach it.
    'lsof "$XDG_DATA_HOME/opencode/opencode.db" ~/.local/share/opencode/opencode.db  # then: ls -l /proc/<pid>/cwd (a holder whose cwd cannot be read counts for every session of the home)',
  ],
  store: async (ports, def) => (await import('./opencode-store.js')).opencodeStore(ports, def),
});

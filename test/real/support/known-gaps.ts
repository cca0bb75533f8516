// Checks the current adapters fail, each one assertion, run with `it.fails` so the suite stays green and a fix shows up
// as "expected to fail but passed": then delete the name here (part B of issue 18 fixes these).
import { it } from 'vitest';

export const KNOWN_GAPS = new Set<string>([
  // Codex: a spawn_agent child thread is offered by discover, and survives its parent's purge unreported.
  'codex: discover excludes sub-agent threads',
  'codex: purging a parent removes its sub-agent threads',
  // Codex: the threads rows keep the old absolute rollout_path, so a moved CODEX_HOME discovers nothing.
  'codex: discover finds the rollouts of a moved CODEX_HOME',
  // Codex/OpenCode: freed SQLite pages still hold the purged id (the purge connection does not set secure_delete).
  'codex: no unaccounted byte of the purged id',
  'opencode: no unaccounted byte of the purged id',
  // OpenCode: any live opencode holds opencode.db, so a session of another workspace reads as in use.
  'opencode: a live session in one workspace does not hold an idle one of another',
  // Claude Code 2.1.332: plugins/store/*.json can name a session id and is not reported.
  'claude: no unaccounted byte of the purged id',
  // Claude Code 2.1.332: after a crash, sessions/<pid>.<hash>.key and $TMPDIR/cc-socks/<pid>.sock outlive the pid file.
  "claude: purge removes the crashed run's .key and cc-socks files",
  // Claude Code 2.1.332: /clear in a TUI started with --resume <id> moves it to a new id, but its argv still names the old one.
  'claude: after /clear, a TUI started with --resume no longer holds the old conversation',
]);

/** `it`, or `it.fails` when the check is a known gap of the current adapters (MAM_REAL_GAPS=show: plain `it`, to see why). */
export function check(name: string): typeof it | typeof it.fails {
  return KNOWN_GAPS.has(name) && process.env['MAM_REAL_GAPS'] !== 'show' ? it.fails : it;
}

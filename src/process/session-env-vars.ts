/**
 * The variables the built-in agents export to their tool shells naming the conversation (their definitions'
 * `sessionEnvVars`, in `BUILTIN_AGENTS` order). A caller whose environment names an id in any of them runs inside
 * that conversation's session, whichever agent the id belongs to: the in-use check reads them all. Kept here, below the
 * agents, for the check the agents share; `test/unit/process/agent-cli-names.test.ts` holds it equal to the
 * definitions' lists (`SESSION_ENV_VARS`).
 */
export const BUILTIN_SESSION_ENV_VARS: readonly string[] = [
  'CLAUDE_CODE_SESSION_ID',
  'ANTIGRAVITY_CONVERSATION_ID',
  'CODEX_THREAD_ID',
  'CODEX_SESSION_ID',
  'GROK_SESSION_ID',
  'HERMES_SESSION_ID',
  'OPENCODE_SESSION_ID',
  'GEMINI_SESSION_ID',
];

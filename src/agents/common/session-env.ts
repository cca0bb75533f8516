/**
 * The variables agent CLIs export to their tool shells, naming the conversation the shell belongs to
 * (Codex exports both of its own, measured on 0.171).
 * @public
 */
export const SESSION_ENV_VARS = [
  'CLAUDE_CODE_SESSION_ID',
  'ANTIGRAVITY_CONVERSATION_ID',
  'HERMES_SESSION_ID',
  'GROK_SESSION_ID',
  'OPENCODE_SESSION_ID',
  'CODEX_THREAD_ID',
  'CODEX_SESSION_ID',
] as const;

/**
 * The session variables of `env` whose value is the id (uuids compared case-insensitively).
 * @public
 */
export function sessionVarsNaming(env: Readonly<Record<string, string | undefined>>, id: string, caseInsensitive: boolean): string[] {
  const want = caseInsensitive ? id.toLowerCase() : id;
  return SESSION_ENV_VARS.filter((name) => {
    const value = env[name]?.trim();
    if (value === undefined || value === '') return false;
    return (caseInsensitive ? value.toLowerCase() : value) === want;
  });
}

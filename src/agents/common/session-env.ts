/**
 * The variables of `names` set in `env` to the id (uuids compared case-insensitively).
 * @public
 */
export function sessionVarsNaming(env: Readonly<Record<string, string | undefined>>, id: string, caseInsensitive: boolean, names: readonly string[]): string[] {
  const want = caseInsensitive ? id.toLowerCase() : id;
  return names.filter((name) => {
    const value = env[name]?.trim();
    if (value === undefined || value === '') return false;
    return (caseInsensitive ? value.toLowerCase() : value) === want;
  });
}

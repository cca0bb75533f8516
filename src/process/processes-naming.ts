import type { ProcessInfo } from '../ports/process.js';

/**
 * The processes, outside `exclude`, whose command line contains any of `needles` (e.g. both spellings of a conversation id); empty needles match nothing.
 * With `caseInsensitive`, letter case is ignored on both sides: a uuid a person typed in capitals, or in mixed case, still
 * names the conversation (the in-use check compares uuids so; `idSpellings` gives only the lower and upper spellings).
 * @public
 */
export function processesNaming(
  snapshot: readonly ProcessInfo[],
  needles: readonly string[],
  exclude: ReadonlySet<number> = new Set(),
  options: { readonly caseInsensitive?: boolean } = {},
): ProcessInfo[] {
  const fold = options.caseInsensitive === true ? (s: string): string => s.toLowerCase() : (s: string): string => s;
  const wanted = needles.filter((n) => n !== '').map(fold);
  if (wanted.length === 0) return [];
  const names = (text: string): boolean => {
    const folded = fold(text);
    return wanted.some((n) => folded.includes(n));
  };
  return snapshot.filter((p) => !exclude.has(p.pid) && (names(p.command) || (p.argv?.some(names) ?? false)));
}

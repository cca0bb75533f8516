/**
 * A name as it is safe to print on one line: as is when it is plain, else JSON-quoted (no control character, space or
 * line break reaches the output raw).
 * @public
 */
export function displayName(name: string): string {
  return /^[A-Za-z0-9._:@+,=-]{1,256}$/.test(name) ? name : JSON.stringify(name);
}

/**
 * One open file of `lsof -F pcn` output.
 * @public
 */
export interface LsofEntry {
  pid: number;
  command: string;
  name: string;
}

const ESCAPES: Readonly<Record<string, string>> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * Undoes lsof's escaping of unprintable bytes in a name (`\xNN`, `\t`, `^A`), decoding the bytes as UTF-8.
 * @public
 */
export function unescapeLsofName(name: string): string {
  if (!/\\x[0-9a-fA-F]{2}|\\[bfnrt]|\^[@-_]/.test(name)) return name;
  const bytes: number[] = [];
  const chars = Array.from(name);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    const next = chars[i + 1];
    const hex = chars.slice(i + 2, i + 4).join('');
    if (ch === '\\' && next === 'x' && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 3;
    } else if (ch === '\\' && next !== undefined && ESCAPES[next] !== undefined) {
      bytes.push((ESCAPES[next] as string).charCodeAt(0));
      i += 1;
    } else if (ch === '^' && next !== undefined && next.length === 1 && next >= '@' && next <= '_') {
      bytes.push(next.charCodeAt(0) - 64);
      i += 1;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * Parses `lsof -F pcn` output (one field per line: `p` pid, `c` command, `f` fd, `n` name) into one entry per name.
 * @public
 */
export function parseLsofFields(stdout: string): LsofEntry[] {
  const out: LsofEntry[] = [];
  let pid: number | undefined;
  let command = '';
  for (const line of stdout.split('\n')) {
    const tag = line[0];
    const value = line.slice(1);
    if (tag === 'p') {
      pid = Number(value);
      command = '';
    } else if (tag === 'c') {
      command = value;
    } else if (tag === 'n' && pid !== undefined && Number.isSafeInteger(pid)) {
      out.push({ pid, command, name: value });
    }
  }
  return out;
}

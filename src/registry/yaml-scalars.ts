// Scalar rules shared by the registry's YAML emitter and its fast parser. They follow YAML 1.1 as PyYAML
// resolves it (the reference tool reads the file with yaml.safe_load), and are deliberately conservative:
// a string is written plain only when no YAML 1.1 or 1.2 reader could take it for anything but that string.

const PLAIN_CHARS = /^[A-Za-z_/][A-Za-z0-9_/.,@+=~:()-]*(?: [A-Za-z0-9_/.,@+=~:()-]+)*$/;
const UUID_SHAPED = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const COLON_BREAK = /:(?: |$)/;

// PyYAML's booleans and nulls, plus y/n, which YAML 1.1 (and some readers) also take for booleans.
const RESERVED = new Set(
  ['yes', 'no', 'true', 'false', 'on', 'off', 'null', 'y', 'n'].flatMap((w) => [w, w[0]?.toUpperCase() + w.slice(1), w.toUpperCase()]),
);
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const TRUES = new Set(['yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']);
const FALSES = new Set(['no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']);
const INT = /^[-+]?(?:0|[1-9][0-9]*)$/;
const FLOAT = /^[-+]?[0-9]+\.[0-9]*(?:[eE][-+][0-9]+)?$/;
const INF = /^([-+]?)\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;
const PRINTABLE = /^[\x20-\x7E\u00A0-\u2027\u202A-\uD7FF\uE000-\uFEFE\uFF00-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/**
 * Marks a construct the fast parser leaves to the full YAML parser.
 * @public
 */
export const FALLBACK: unique symbol = Symbol('fallback');

/**
 * True when `s` can be written as a plain (unquoted) scalar and reads back as exactly this string everywhere.
 * @public
 */
export function isPlainSafe(s: string): boolean {
  if (UUID_SHAPED.test(s)) return true;
  return PLAIN_CHARS.test(s) && !COLON_BREAK.test(s) && !RESERVED.has(s);
}

/**
 * What a plain scalar means under YAML 1.1 (PyYAML), or FALLBACK for anything this subset does not decide.
 * @public
 */
export function resolvePlain(s: string): string | number | boolean | null | typeof FALLBACK {
  const c = s.charCodeAt(0);
  // A letter, `_` or `/`: a string, unless one of the short boolean / null words (no other YAML 1.1 type starts so).
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 47) {
    if (s.length > 5) return s;
    if (TRUES.has(s)) return true;
    if (FALSES.has(s)) return false;
    return NULLS.has(s) ? null : s;
  }
  if (NULLS.has(s)) return null;
  if (INT.test(s) || FLOAT.test(s)) return Number(s);
  const inf = INF.exec(s);
  if (inf !== null) return inf[1] === '-' ? -Infinity : Infinity;
  if (NAN.test(s)) return Number.NaN;
  return UUID_SHAPED.test(s) ? s : FALLBACK;
}

/**
 * A number as YAML 1.1 and 1.2 both read it back: integers in decimal, floats always with a dot before any exponent.
 * @public
 */
export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n === 0 ? 0 : n);
  const s = String(n);
  // PyYAML takes `1e-7` for a string: its float needs a dot in the mantissa.
  return s.includes('.') ? s : s.replace('e', '.0e');
}

function escapeChar(cp: number): string {
  switch (cp) {
    case 0x00: return '\\0';
    case 0x07: return '\\a';
    case 0x08: return '\\b';
    case 0x09: return '\\t';
    case 0x0a: return '\\n';
    case 0x0b: return '\\v';
    case 0x0c: return '\\f';
    case 0x0d: return '\\r';
    case 0x1b: return '\\e';
    case 0x22: return '\\"';
    case 0x5c: return '\\\\';
    case 0x85: return '\\N';
    case 0x2028: return '\\L';
    case 0x2029: return '\\P';
    default:
      if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, '0')}`;
      if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, '0')}`;
      return `\\U${cp.toString(16).padStart(8, '0')}`;
  }
}

/**
 * A string as a scalar: plain when safe, single-quoted when printable, else double-quoted with escapes.
 * @public
 */
export function formatString(s: string): string {
  if (isPlainSafe(s)) return s;
  if (PRINTABLE.test(s)) return `'${s.replaceAll("'", "''")}'`;
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    out += cp !== 0x22 && cp !== 0x5c && PRINTABLE.test(ch) ? ch : escapeChar(cp);
  }
  return `${out}"`;
}

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
const HEX_LENGTH: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/**
 * Reads a quoted scalar that starts at `text[start]` and closes on the same line: its value and the index after it, or FALLBACK.
 * @public
 */
export function readQuoted(text: string, start: number): { value: string; end: number } | typeof FALLBACK {
  const quote = text[start];
  let out = '';
  let i = start + 1;
  if (quote === "'") {
    for (;;) {
      const close = text.indexOf("'", i);
      if (close < 0) return FALLBACK;
      out += text.slice(i, close);
      if (text[close + 1] !== "'") return { value: out, end: close + 1 };
      out += "'";
      i = close + 2;
    }
  }
  for (; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch === '"') return { value: out, end: i + 1 };
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const esc = text[++i] ?? '';
    const simple = SIMPLE_ESCAPES[esc];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const len = HEX_LENGTH[esc];
    const hex = len === undefined ? '' : text.slice(i + 1, i + 1 + len);
    if (len === undefined || !/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) return FALLBACK;
    const cp = Number.parseInt(hex, 16);
    if (cp > 0x10ffff) return FALLBACK;
    out += String.fromCodePoint(cp);
    i += len;
  }
  return FALLBACK;
}

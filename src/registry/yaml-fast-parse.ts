import { dashAt, Fallback, fallback, isDash, keyEnd, Resolver } from './yaml-fast-scan.js';
import { FALLBACK, readQuoted } from './yaml-scalars.js';

// A parser for the block-style subset of YAML that the registry writes and PyYAML's safe_dump writes
// (block mappings and sequences, one-line scalars, `[]` / `{}`), about fifty times faster than a full
// YAML parser on a 1,000-row registry. Anything else (comments, flow collections, anchors, tags,
// multi-line scalars, document markers, tabs) throws Fallback, and the caller uses the full parser.

// One entry of a mapping as last read: its key, and its plain value's text and meaning when it had one.
interface Guess {
  key: string;
  text: string | undefined;
  value: unknown;
}

// `line.startsWith(s, at)` for `at <= line.length`, about twice as fast here: the builtin's per-call overhead and a
// character loop both cost more than a slice and one string comparison (a block compare).
function textAt(line: string, s: string, at: number): boolean {
  return line.slice(at, at + s.length) === s;
}

class FastParser {
  #i = 0;
  #indent = 0;
  #scanned = -1;
  // A compact item (`- name: x`) is re-read as if its line began at the item's column: that line's stand-in text.
  #vLine = -1;
  #vText = '';
  readonly #r = new Resolver();
  // The keys (and plain values) of the last mapping read at each indent.
  readonly #shapes: Array<Guess[] | undefined> = [];
  /** Where each item of a top-level `herdr_sessions` list written at column 0 is in the text, when there is one. */
  spans: Array<[number, number]> | undefined;
  readonly #starts: number[];
  constructor(private readonly lines: readonly string[]) {
    this.#starts = new Array<number>(lines.length);
    let at = 0;
    for (let i = 0; i < lines.length; i++) {
      this.#starts[i] = at;
      at += (lines[i] as string).length + 1;
    }
  }

  #line(i: number): string {
    return i === this.#vLine ? this.#vText : (this.lines[i] as string);
  }

  // Moves to the next line with content (blank lines skipped) and records its indent; a comment is left to the full parser.
  #next(): boolean {
    // Callers look at the same line more than once (a lookahead, then the loop that reads it): scan it once.
    if (this.#i === this.#scanned) return true;
    const lines = this.lines;
    for (; this.#i < lines.length; this.#i++) {
      const line = this.#line(this.#i);
      let n = 0;
      while (line.charCodeAt(n) === 32) n++;
      if (n === line.length) continue;
      if (line.charCodeAt(n) === 35) fallback();
      this.#indent = n;
      this.#scanned = this.#i;
      return true;
    }
    return false;
  }

  document(): unknown {
    if (!this.#next()) return null;
    const value = this.#block(this.#indent);
    if (this.#next()) fallback();
    return value;
  }

  #block(indent: number): unknown {
    return dashAt(this.#line(this.#i), indent) ? this.#seq(indent) : this.#map(indent);
  }

  // The value of `key:` or `-` with nothing after it: a nested block, an indentless sequence, or null.
  #nested(parentIndent: number, inMap: boolean, spans?: Array<[number, number]>): unknown {
    if (!this.#next()) return null;
    const indent = this.#indent;
    if (indent > parentIndent) return this.#block(indent);
    if (inMap && indent === parentIndent && dashAt(this.#line(this.#i), indent)) return this.#seq(indent, spans);
    return null;
  }

  // `key: rest` → [key, rest], or null when the text is not a mapping entry.
  #splitKey(text: string): [string, string] | null {
    const first = text[0];
    if (first === "'" || first === '"') {
      const q = readQuoted(text, 0);
      if (q === FALLBACK) fallback();
      if (text[q.end] !== ':' || (q.end + 1 < text.length && text[q.end + 1] !== ' ')) return null;
      if (q.value === '__proto__') fallback();
      return [q.value, text.slice(q.end + 1)];
    }
    const end = keyEnd(text);
    return end < 0 ? null : [this.#r.key(text.slice(0, end)), text.slice(end + 1)];
  }

  // A scalar or empty collection that fills the rest of a line.
  #inline(raw: string): unknown {
    const text = raw.trim();
    if (text === '[]') return [];
    if (text === '{}') return {};
    const first = text[0];
    if (first === "'" || first === '"') {
      const q = readQuoted(text, 0);
      if (q === FALLBACK || text.slice(q.end).trim() !== '') fallback();
      return q.value;
    }
    return this.#r.plain(text);
  }

  // A scalar or empty collection in line[vs, ve) (spaces already trimmed off both ends).
  #inlineAt(line: string, vs: number, ve: number): unknown {
    const c = line.charCodeAt(vs);
    if (ve - vs === 2 && ((c === 91 && line.charCodeAt(vs + 1) === 93) || (c === 123 && line.charCodeAt(vs + 1) === 125))) return c === 91 ? [] : {};
    if (c === 39 || c === 34) {
      const q = readQuoted(line, vs);
      if (q === FALLBACK || q.end !== ve) fallback();
      return q.value;
    }
    return this.#r.plain(line.slice(vs, ve));
  }

  // Works on offsets into the line and guesses each key and plain value from the previous mapping at the same indent
  // (rows repeat their keys, and many of their values): a guess that matches the text costs no slice and no lookup.
  #map(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const prev = this.#shapes[indent];
    const shape: Array<Guess> = [];
    // While every key so far matched its guess, the keys are the previous mapping's first ones, which are distinct (its
    // guesses hold its own plain keys, or a newline for a quoted one, which no line can match): no duplicate to look for.
    let guessedAll = true;
    while (this.#next() && this.#indent >= indent) {
      if (this.#indent > indent) fallback();
      const line = this.#line(this.#i);
      if (dashAt(line, indent)) fallback();
      const guess = prev?.[shape.length];
      let key: string;
      let vs: number;
      const c = line.charCodeAt(indent);
      if (guess !== undefined && line.charCodeAt(indent + guess.key.length) === 58 && (indent + guess.key.length + 1 === line.length || line.charCodeAt(indent + guess.key.length + 1) === 32) && textAt(line, guess.key, indent)) {
        key = guess.key;
        if (!guessedAll && Object.hasOwn(out, key)) fallback();
        vs = indent + key.length + 1;
      } else if (c === 39 || c === 34) {
        const q = readQuoted(line, indent);
        if (q === FALLBACK || line.charCodeAt(q.end) !== 58 || (q.end + 1 < line.length && line.charCodeAt(q.end + 1) !== 32) || q.value === '__proto__') fallback();
        // A quoted key is never guessed (its text is not the key): its guess is a newline, which no line holds.
        key = q.value;
        guessedAll = false;
        if (Object.hasOwn(out, key)) fallback();
        vs = q.end + 1;
      } else {
        let e = line.indexOf(': ', indent);
        if (e < 0 && line.endsWith(':')) e = line.length - 1;
        if (e < 0) fallback();
        key = this.#r.key(line.slice(indent, e));
        guessedAll = false;
        if (Object.hasOwn(out, key)) fallback();
        vs = e + 1;
      }
      this.#i++;
      while (line.charCodeAt(vs) === 32) vs++;
      let ve = line.length;
      while (ve > vs && line.charCodeAt(ve - 1) === 32) ve--;
      // The guess that matched is this entry now (the previous shape is not read again): update it in place.
      const mine: Guess = guess?.key === key ? guess : { key: c === 39 || c === 34 ? '\n' : key, text: undefined, value: undefined };
      shape.push(mine);
      if (vs === ve) {
        // The registry's rows at column 0: remember where each one is, so an unchanged row is written back as it was.
        const spans = indent === 0 && key === 'herdr_sessions' ? (this.spans = []) : undefined;
        out[key] = this.#nested(indent, true, spans);
        continue;
      }
      const c0 = line.charCodeAt(vs);
      const plain = c0 !== 39 && c0 !== 34 && c0 !== 91 && c0 !== 123;
      if (plain && mine.text !== undefined && ve - vs === mine.text.length && textAt(line, mine.text, vs)) {
        out[key] = mine.value;
        continue;
      }
      if (!plain) {
        out[key] = this.#inlineAt(line, vs, ve);
        mine.text = undefined;
        mine.value = undefined;
        continue;
      }
      // What #inlineAt does for a plain scalar, keeping the one slice as the next guess's text.
      const text = line.slice(vs, ve);
      const value = this.#r.plain(text);
      out[key] = value;
      const keep = value === null || typeof value !== 'object';
      mine.text = keep ? text : undefined;
      mine.value = keep ? value : undefined;
    }
    this.#shapes[indent] = shape;
    return out;
  }

  #seq(indent: number, spans?: Array<[number, number]>): unknown[] {
    const out: unknown[] = [];
    let start = -1;
    while (this.#next() && this.#indent >= indent) {
      if (this.#indent > indent) fallback();
      const at = this.#i;
      const content = this.#line(at).slice(indent);
      if (!isDash(content)) break;
      if (spans !== undefined && start >= 0) spans.push(this.#span(start, at));
      start = at;
      const after = content.slice(1);
      const item = after.trimStart();
      if (item === '') {
        this.#i++;
        out.push(this.#nested(indent, false));
      } else if (isDash(item) || this.#splitKey(item) !== null) {
        // A compact collection (`- name: x` / `- - a`): re-read this line as a block starting at the item's column.
        const column = indent + 1 + (after.length - item.length);
        this.#vLine = at;
        this.#scanned = -1;
        this.#vText = ' '.repeat(column) + item;
        out.push(this.#block(column));
      } else {
        this.#i++;
        out.push(this.#inline(item));
      }
    }
    if (spans !== undefined && start >= 0) spans.push(this.#span(start, this.#next() ? this.#i : this.lines.length));
    return out;
  }

  // Where lines [start, end) are in the text, trailing blank lines dropped (and the last line's newline left out).
  #span(start: number, end: number): [number, number] {
    let last = end - 1;
    while (last > start && (this.lines[last] as string).trim() === '') last--;
    return [this.#starts[start] as number, (this.#starts[last] as number) + (this.lines[last] as string).length];
  }
}

/**
 * Parses block-style YAML of the registry's subset into plain data, with where each top-level `herdr_sessions` item
 * written at column 0 is in the text (`[start, end)`, its final newline excluded); undefined when the text needs the
 * full YAML parser.
 * @public
 */
export function fastParseYaml(text: string): { value: unknown; rowSpans?: Array<[number, number]> } | undefined {
  // Tabs, carriage returns and byte-order marks are left to the full parser (three indexOf scans beat one regex here).
  if (text.includes('\t') || text.includes('\r') || text.includes('\uFEFF')) return undefined;
  try {
    const parser = new FastParser(text.split('\n'));
    const value = parser.document();
    return parser.spans === undefined ? { value } : { value, rowSpans: parser.spans };
  } catch (err) {
    if (err instanceof Fallback) return undefined;
    throw err;
  }
}

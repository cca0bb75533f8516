import { FALLBACK, resolvePlain } from './yaml-scalars.js';

// The line-level pieces of the fast parser (see yaml-fast-parse.ts).

/**
 * Thrown by the fast parser at a construct it leaves to the full YAML parser.
 * @public
 */
export class Fallback extends Error {}

/**
 * Throws {@link Fallback}.
 * @public
 */
export function fallback(): never {
  throw new Fallback();
}

const INDICATORS = new Set(['[', ']', '{', '}', '&', '*', '!', '|', '>', '%', '@', '`', '#', '?', ',', ':', '-', "'", '"']);

/**
 * True for `-` or `- …`: a sequence entry.
 * @public
 */
export function isDash(content: string): boolean {
  return content === '-' || content.startsWith('- ');
}

/**
 * `isDash(line.slice(at))` without the slice.
 * @public
 */
export function dashAt(line: string, at: number): boolean {
  return line.charCodeAt(at) === 45 && (line.length === at + 1 || line.charCodeAt(at + 1) === 32);
}

/**
 * Where a plain key ends: at `: ` or a final `:`; -1 when the text is no mapping entry.
 * @public
 */
export function keyEnd(text: string): number {
  const i = text.indexOf(': ');
  if (i >= 0) return i;
  return text.endsWith(':') ? text.length - 1 : -1;
}

/**
 * Resolves plain keys and scalars, each spelling once per parse (keys and short scalars repeat from row to row).
 * @public
 */
export class Resolver {
  readonly #keys = new Map<string, string>();
  readonly #values = new Map<string, unknown>();

  key(text: string): string {
    const known = this.#keys.get(text);
    if (known !== undefined) return known;
    if (text === '' || INDICATORS.has(text[0] as string) || text !== text.trimEnd() || text === '__proto__') fallback();
    if (typeof resolvePlain(text) !== 'string') fallback();
    this.#keys.set(text, text);
    return text;
  }

  plain(text: string): unknown {
    // Cached values are never undefined, so one lookup decides; only short spellings are ever cached (see below), so a
    // long one skips the lookup (hashing a fresh id or path costs more than the lookup saves).
    if (text.length <= 16) {
      const known = this.#values.get(text);
      if (known !== undefined) return known;
    }
    if (text.includes(' #') || keyEnd(text) >= 0) fallback();
    if (INDICATORS.has(text[0] as string) && !/^-[^ ]/.test(text)) fallback();
    const v = resolvePlain(text);
    if (v === FALLBACK) fallback();
    // Short spellings repeat (statuses, agents, roles, booleans); long ones (ids, paths) rarely do: not worth a slot.
    if (text.length <= 16) this.#values.set(text, v);
    return v;
  }
}


import { formatNumber, formatString } from './yaml-scalars.js';

/**
 * A value the registry cannot write as plain YAML (a Date, a Map, a function, a bigint, …), with where it was.
 * @public
 */
export class UnsupportedValue extends Error {
  constructor(
    readonly at: string,
    readonly what: string,
  ) {
    super(`${what} at ${at} cannot be written to the registry (only strings, numbers, booleans, null, lists and mappings)`);
  }
}

function describe(v: unknown): string {
  if (typeof v === 'object' && v !== null) return `a ${v.constructor?.name ?? 'null-prototype object'}`;
  return `a ${typeof v}`;
}

/**
 * True for `{}`-style objects (the only mappings the registry holds).
 * @public
 */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function scalar(v: unknown, at: string): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return formatString(v);
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  throw new UnsupportedValue(at, describe(v));
}

function entries(map: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(map).filter(([, v]) => v !== undefined);
}

// A mapping's entries, one per line at `indent`; nested mappings indent by two, sequences do not (PyYAML's style).
function emitMap(map: Record<string, unknown>, indent: number, at: string): string {
  const pad = ' '.repeat(indent);
  let out = '';
  for (const [key, value] of entries(map)) {
    if (key === '__proto__') throw new UnsupportedValue(at, 'a key named __proto__');
    const head = `${pad}${formatString(key)}:`;
    const here = at === '' ? key : `${at}.${key}`;
    if (Array.isArray(value)) out += value.length === 0 ? `${head} []\n` : `${head}\n${emitSeq(value, indent, here)}`;
    else if (isPlainObject(value)) out += entries(value).length === 0 ? `${head} {}\n` : `${head}\n${emitMap(value, indent + 2, here)}`;
    else out += `${head} ${scalar(value, here)}\n`;
  }
  return out;
}

// Sequence items at `indent`; a mapping or sequence item starts on the dash line (`- name: x`).
function emitSeq(items: readonly unknown[], indent: number, at: string): string {
  let out = '';
  // An index loop, not forEach: a hole in a sparse array is written as null, as JSON does.
  for (let i = 0; i < items.length; i++) out += emitItem(items[i], indent, `${at}[${i}]`);
  return out;
}

/**
 * One sequence item (`- …` lines) at `indent`; `at` names the item in errors.
 * @public
 */
export function emitItem(item: unknown, indent: number, at: string): string {
  const pad = ' '.repeat(indent);
  let body: string;
  if (Array.isArray(item)) {
    if (item.length === 0) return `${pad}- []\n`;
    body = emitSeq(item, indent + 2, at);
  } else if (isPlainObject(item)) {
    if (entries(item).length === 0) return `${pad}- {}\n`;
    body = emitMap(item, indent + 2, at);
  } else {
    return `${pad}- ${scalar(item, at)}\n`;
  }
  return `${pad}- ${body.slice(indent + 2)}`;
}

/**
 * One top-level `key: value` block of a document.
 * @public
 */
export function emitTopLevel(key: string, value: unknown): string {
  return emitMap({ [key]: value }, 0, '');
}

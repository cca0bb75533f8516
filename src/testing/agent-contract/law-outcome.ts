import type { AgentContractOptions } from './types.js';
import type { Ports } from '../../ports/index.js';
import type { StageRun } from './stage-run.js';

/** What one law found: the problems (none when it holds) and a remark for the report. */
export interface LawOutcome {
  /** Every way the law was broken, one line each. */
  problems: string[];
  /** A remark when it held (an optional method the adapter lacks …). */
  remark?: string;
}

/** What a law runs with: the options, the resolved ports and the stage. */
export interface LawInput {
  /** The suite's options. */
  options: AgentContractOptions;
  /** The ports every stage runs on (the process table is replaced per adapter). */
  base: Ports;
  /** Runs `fn` on the stage: a fresh build for a law that may change it, a shared one for a law that only reads. */
  withStage<T>(fn: (run: StageRun) => Promise<T>): Promise<T>;
}

/** A short, printable form of any value (for messages). */
export function show(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'string' && v.includes('\0') ? v.replaceAll('\0', '\\0') : v));
    if (text === undefined) return String(value);
    return text.length > 300 ? `${text.slice(0, 300)}…` : text;
  } catch {
    return String(value);
  }
}

/** The error's message (or its text). */
export function messageOf(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** The ids of a list that a set lacks. */
export function missing(ids: readonly string[], from: readonly string[]): string[] {
  const have = new Set(from);
  return ids.filter((id) => !have.has(id));
}

/** An id of the same shape as `id` that names nothing: its last character changed (`0` ↔ `1`). */
export function unknownLike(id: string): string {
  return `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;
}

import type { z } from 'zod';
import { lazySchema } from '../lazy-zod.js';

// herdr's own rules: a session (server) name is 1–64 of [A-Za-z0-9._-] (here never with a leading `-`, so it cannot
// read as an option in a printed command); an agent name is [a-z][a-z0-9_-]{0,31}; a pane id looks like `w2X:p1`.
const SERVER = /^(?!\.{1,2}$)[A-Za-z0-9._][A-Za-z0-9._-]{0,63}$/;
const AGENT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
const PANE = /^[A-Za-z0-9][A-Za-z0-9:_-]{0,63}$/;
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * What an id-order marker file holds (`.mam/id-order/<cwd key>/<pid>-<token>.json`): who is creating which session in
 * the cwd, on which herdr server, for which attempt. Every field is checked on read (a marker is input from disk).
 * @public
 */
export const IdOrderMarkerSchema = lazySchema((z) => z.strictObject({
  version: z.literal(1),
  /** The creating process. */
  owner_pid: z.number().int().positive(),
  /** Its start (epoch ms), a pid-reuse guard; null when the process table could not tell. */
  owner_started_at_ms: z.number().finite().nullable(),
  /** Its start in clock ticks since boot (`/proc`), the precise pid-reuse guard; null elsewhere. */
  owner_start_ticks: z.number().int().nonnegative().nullable(),
  /** Tells apart two creates of one process. */
  token: z.uuid(),
  /** The row name being created (shown JSON-quoted, never trusted as a path or a command). */
  session: z.string().min(1).max(4096).refine((s) => !s.includes('\u0000')),
  /** The name herdr knows the agent by (sanitised). */
  herdr_name: z.string().regex(AGENT_NAME),
  /** The herdr server (session) the pane lives on. */
  herdr_server: z.string().regex(SERVER),
  /** The attempt: epoch seconds when the gate was passed; the row this attempt registers has an epoch at or after it. */
  attempt: z.number().int().nonnegative(),
  /** The cwd (realpath) the gate is for. */
  cwd: z.string().min(1).refine((s) => !CONTROL.test(s)),
  /** The pane this attempt made, once known. */
  pane_id: z.string().regex(PANE).nullable(),
  /** When the marker was written (ISO 8601). */
  written_at: z.string().max(64),
}));

/**
 * A parsed id-order marker.
 * @public
 */
export type IdOrderMarker = z.infer<typeof IdOrderMarkerSchema>;

/**
 * The marker in a file's text, or the problem that makes it unreadable (the gate then keeps it and blocks).
 * @public
 */
export function parseIdOrderMarker(text: string): { ok: true; marker: IdOrderMarker } | { ok: false; problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'not JSON' };
  }
  const parsed = IdOrderMarkerSchema.safeParse(raw);
  if (parsed.success) return { ok: true, marker: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, problem: `field ${issue?.path.join('.') || '(top)'}: ${issue?.message ?? 'invalid'}` };
}

/**
 * The file text of a marker (one JSON object, keys in schema order).
 * @public
 */
export function idOrderMarkerText(marker: IdOrderMarker): string {
  return `${JSON.stringify(IdOrderMarkerSchema.parse(marker), null, 2)}\n`;
}

/**
 * The file name of a marker: `<owner pid>-<token>.json`.
 * @public
 */
export function idOrderMarkerFileName(marker: Pick<IdOrderMarker, 'owner_pid' | 'token'>): string {
  return `${marker.owner_pid}-${marker.token}.json`;
}

/**
 * True for a name the gate treats as a marker (anything else in the directory, such as an atomic write's temp file, is not one).
 * @public
 */
export function isIdOrderMarkerFileName(name: string): boolean {
  return /^[0-9]{1,10}-[0-9a-fA-F-]{36}\.json$/.test(name);
}

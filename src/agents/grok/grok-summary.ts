import { join } from 'node:path';
import { canonicalGrokId } from './grok-ids.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { readRegularFile } from '../common/read-regular.js';

/** A summary.json is a few kilobytes (titles, recaps); far larger is not one grok wrote. */
const MAX_SUMMARY_BYTES = 4 * 1024 * 1024;

/**
 * What a session dir's `summary.json` says (the fields the adapter uses).
 * @public
 */
export interface GrokSummary {
  /** `info.id`, canonical (lower-case uuid), or null when it is not a plausible id. */
  id: string | null;
  /** `info.cwd` as written (the cwd as grok's process saw it). */
  cwd: string | null;
  /** `last_active_at`, else `updated_at`, epoch ms; null when neither parses. */
  activeMs: number | null;
  /** `session_kind` (`fork`, `subagent`, `subagent_fork`, …) or null. */
  kind: string | null;
  /** grok's `is_hidden()`: `hidden` when set, else a `session_kind` starting with `subagent`. */
  hidden: boolean;
}

/**
 * The outcome of reading a session dir's summary: parsed, `missing`, or not understood (with why).
 * @public
 */
export type GrokSummaryRead = { kind: 'ok'; summary: GrokSummary } | { kind: 'missing' } | { kind: 'problem'; problem: string };

function time(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/**
 * Parses the text of a `summary.json`, or null when it is not a JSON object with an `info` object.
 * @public
 */
export function parseGrokSummary(text: string): GrokSummary | null {
  let rec: unknown;
  try {
    rec = JSON.parse(text);
  } catch {
    return null;
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return null;
  const r = rec as Record<string, unknown>;
  const info = r['info'];
  if (info === null || typeof info !== 'object' || Array.isArray(info)) return null;
  const i = info as Record<string, unknown>;
  const kind = typeof r['session_kind'] === 'string' ? r['session_kind'] : null;
  const hidden = typeof r['hidden'] === 'boolean' ? r['hidden'] : (kind?.startsWith('subagent') ?? false);
  return {
    id: canonicalGrokId(i['id']),
    cwd: typeof i['cwd'] === 'string' ? i['cwd'] : null,
    activeMs: time(r['last_active_at']) ?? time(r['updated_at']),
    kind,
    hidden,
  };
}

/**
 * Reads `<dir>/summary.json` (a regular file only, as grok's own listing requires). Never throws.
 * @public
 */
export async function readGrokSummary(fs: FileSystemPort, sessionDir: string): Promise<GrokSummaryRead> {
  const read = await readRegularFile(fs, join(sessionDir, 'summary.json'), MAX_SUMMARY_BYTES);
  if (read.kind !== 'text') return read.kind === 'missing' ? read : { kind: 'problem', problem: `summary.json ${read.problem}` };
  const summary = parseGrokSummary(read.text);
  return summary === null ? { kind: 'problem', problem: 'summary.json is not a summary grok writes' } : { kind: 'ok', summary };
}

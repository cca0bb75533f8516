import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic/atomic-write.js';
import { describeError, isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { AutoPinResult } from './autopin-result.js';

/**
 * The marker a handled `(job, dispatch token, attempt)` leaves in the job's dir: who handled it, when, and what it did.
 * @public
 */
export interface AutoPinMarker {
  /** Marker format version; always 1. */
  version: 1;
  /** The job handled. */
  job_id: string;
  /** The job attempt handled (the record's `attempt_id` at the time). */
  attempt: number;
  /** SHA-256 of the dispatch token (the token itself never names a path). */
  token_sha256: string;
  /** When it was handled, ISO 8601 UTC from the Clock port. */
  handled_at: string;
  /** The process that handled it. */
  pid: number;
  /**
   * What handling it did; a later call for the same job, token and attempt returns it as `previous`. Its `agent` may be
   * an outside one's (an AutoPin given `agents` wrote it).
   */
  result: AutoPinResult<string>;
}

/**
 * What reading a marker found: none (not handled yet), a marker, or a file that is there but unreadable (counted as handled).
 * @public
 */
export type AutoPinMarkerRead = { kind: 'none' } | { kind: 'marker'; marker: AutoPinMarker } | { kind: 'unreadable'; problem: string };

const RESULT_KINDS = new Set(['pinned', 'skipped', 'failed']);

/**
 * Where AutoPin works in a job's dir: the job-scoped lock, and the marker of one `(dispatch token, attempt)`.
 * @public
 */
export const autoPinPaths = {
  lock: (jobDir: string): string => join(jobDir, 'autopin.lock'),
  marker: (jobDir: string, attempt: number, tokenSha256: string): string => join(jobDir, `autopin-a${attempt}-${tokenSha256.slice(0, 32)}.json`),
  tokenSha256: (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex'),
};

/**
 * Reads a marker; a missing file is `none`, anything that is not a marker AutoPin wrote is `unreadable`.
 * @public
 */
export async function readAutoPinMarker(fs: FileSystemPort, path: string): Promise<AutoPinMarkerRead> {
  let text: string;
  try {
    text = await fs.readText(path);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return { kind: 'none' };
    return { kind: 'unreadable', problem: describeError(err) };
  }
  try {
    const m = JSON.parse(text) as Partial<AutoPinMarker> | null;
    const kind = (m?.result as { kind?: unknown } | undefined)?.kind;
    if (m?.version !== 1 || typeof kind !== 'string' || !RESULT_KINDS.has(kind)) return { kind: 'unreadable', problem: 'not an AutoPin marker' };
    return { kind: 'marker', marker: m as AutoPinMarker };
  } catch {
    return { kind: 'unreadable', problem: 'not JSON' };
  }
}

/**
 * Writes a marker atomically (a crash leaves either no marker or the whole one).
 * @public
 */
export async function writeAutoPinMarker(fs: FileSystemPort, path: string, marker: AutoPinMarker): Promise<void> {
  await writeFileAtomic(fs, path, `${JSON.stringify(marker, null, 2)}\n`);
}

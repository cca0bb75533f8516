import { join } from 'node:path';
import { isPortError } from '../errors.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystemPort } from '../ports/fs.js';

/**
 * The report evidence of a job (the `filesystem` block of a policy scenario).
 * @public
 */
export interface LoopReportEvidence {
  /** True when `report.md` is a regular file in the job's working dir. */
  report_present: boolean;
  /** How long (ms) the report's mtime has not changed; absent with no report. A hint only. */
  report_mtime_stable_ms?: number;
  /** True when `report.manifest.json` parses and names a SHA-256. */
  manifest_committed: boolean;
  /** True when the report's bytes (at most 16 MiB) hash to the manifest's SHA-256. */
  hash_verified: boolean;
  /** Any other field, ignored by the policy. */
  [extra: string]: unknown;
}

const MAX_REPORT_BYTES = 16 * 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;

/**
 * Where a job's report lives in its working dir: `report.md`, and `report.manifest.json` = `{ "sha256": "<hex>" }`
 * written (atomically, last) by whoever finalises the report.
 * @public
 */
export const loopReportPaths = {
  report: (jobDir: string): string => join(jobDir, 'report.md'),
  manifest: (jobDir: string): string => join(jobDir, 'report.manifest.json'),
};

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return Buffer.from(digest).toString('hex');
}

async function manifestSha(fs: FileSystemPort, path: string): Promise<string | null> {
  try {
    const m = JSON.parse(await fs.readText(path)) as { sha256?: unknown } | null;
    return typeof m?.sha256 === 'string' && SHA256.test(m.sha256.toLowerCase()) ? m.sha256.toLowerCase() : null;
  } catch {
    return null;
  }
}

/**
 * Reads a job's report evidence: present (a regular file), for how long its mtime has been stable, manifest committed (the
 * manifest parses and names a SHA-256), hash verified (the report's bytes hash to it). A stable mtime is only a hint;
 * the manifest and the hash decide. Never throws for what is (or is not) on disk.
 * @public
 */
export async function readLoopReportEvidence(fs: FileSystemPort, clock: Clock, jobDir: string): Promise<LoopReportEvidence> {
  const none: LoopReportEvidence = { report_present: false, manifest_committed: false, hash_verified: false };
  let size: number;
  let mtimeMs: number;
  try {
    const st = await fs.lstat(loopReportPaths.report(jobDir));
    if (st.kind !== 'file') return none;
    ({ size, mtimeMs } = st);
  } catch (err) {
    if (isPortError(err)) return none;
    throw err;
  }
  const stable = Math.max(0, clock.now() - mtimeMs);
  const want = await manifestSha(fs, loopReportPaths.manifest(jobDir));
  if (want === null) return { report_present: true, report_mtime_stable_ms: stable, manifest_committed: false, hash_verified: false };
  let verified = false;
  if (size <= MAX_REPORT_BYTES) {
    const bytes = await fs.readFile(loopReportPaths.report(jobDir)).catch(() => null);
    verified = bytes !== null && (await sha256Hex(bytes)) === want;
  }
  return { report_present: true, report_mtime_stable_ms: stable, manifest_committed: true, hash_verified: verified };
}

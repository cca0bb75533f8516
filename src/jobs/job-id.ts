import { nodeCrypto } from '../lazy-crypto.js';
import { JobArgumentError } from './job-argument-error.js';

// A job id names a file and a directory under the registry: no separators, no leading dot, bounded length.
const JOB_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * True when `id` can name a job: letters, digits, `.`, `_`, `-`, starting with a letter or digit, at most 128 characters.
 * @public
 */
export function isValidJobId(id: unknown): id is string {
  return typeof id === 'string' && JOB_ID.test(id) && !id.endsWith('.json');
}

/**
 * Returns `id` when it can name a job, else throws a `JobArgumentError` (so no path is ever built from it).
 * @public
 */
export function requireJobId(id: unknown): string {
  if (!isValidJobId(id)) throw new JobArgumentError(`not a valid job id: ${JSON.stringify(id)}`, { jobId: id });
  return id;
}

/**
 * A new job id: `job-` + the UTC time to the second + 8 random hex digits, so ids sort roughly by creation.
 * @public
 */
export function newJobId(nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `job-${stamp}-${nodeCrypto().randomBytes(4).toString('hex')}`;
}

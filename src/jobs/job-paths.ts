import { dirname, join } from 'node:path';
import { requireJobId } from './job-id.js';

/**
 * Where a job's files live: its record, its working dir, the registry lock, and its audit log.
 * @public
 */
export const jobPaths = {
  /** `<registry_dir>/<job_id>.json`. */
  record: (registryDir: string, jobId: string): string => join(registryDir, `${requireJobId(jobId)}.json`),
  /** `<registry_dir>/<job_id>/`: markers and reports. */
  workDir: (registryDir: string, jobId: string): string => join(registryDir, requireJobId(jobId)),
  /** The one cross-process lock every record write takes. */
  lock: (registryDir: string): string => join(registryDir, '.jobs.lock'),
  /** The default audit logs dir: `logs/jobs/` beside the registry dir (`.mam/logs/jobs/`). */
  defaultLogsDir: (registryDir: string): string => join(dirname(registryDir), 'logs', 'jobs'),
  /** `<logs_dir>/<job_id>.jsonl`. */
  auditLog: (logsDir: string, jobId: string): string => join(logsDir, `${requireJobId(jobId)}.jsonl`),
};

import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import { isValidJobId } from './job-id.js';
import { JobNotFoundError } from './job-not-found-error.js';
import { jobPaths } from './job-paths.js';
import { JobRecordCorruptError } from './job-record-corrupt-error.js';
import { jobRecordSchema, type JobRecord } from './job-record.js';
import { checkListJobIds, checkReadJobRecord } from '../validation/low-level-args.js';

/**
 * Reads and validates one job record; throws `JobNotFoundError` or `JobRecordCorruptError`.
 * @public
 */
export async function readJobRecord(fs: FileSystemPort, registryDir: string, jobId: string): Promise<JobRecord> {
  checkReadJobRecord([fs, registryDir, jobId]);
  const path = jobPaths.record(registryDir, jobId);
  let text: string;
  try {
    text = await fs.readText(path);
  } catch (err) {
    if (isPortError(err, 'NotFound')) throw new JobNotFoundError(jobId, path, { cause: err });
    throw err;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (err) {
    throw new JobRecordCorruptError(path, 'not JSON', { cause: err });
  }
  const parsed = jobRecordSchema.safeParse(body);
  if (!parsed.success) throw new JobRecordCorruptError(path, parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; '));
  if (parsed.data.job_id !== jobId) throw new JobRecordCorruptError(path, `job_id is ${JSON.stringify(parsed.data.job_id)}`);
  return parsed.data;
}

/**
 * The ids of every record in the registry dir (files `<job_id>.json`; temps, the lock and working dirs are skipped), sorted.
 * @public
 */
export async function listJobIds(fs: FileSystemPort, registryDir: string): Promise<string[]> {
  checkListJobIds([fs, registryDir]);
  let entries;
  try {
    entries = await fs.readdir(registryDir);
  } catch (err) {
    if (isPortError(err, 'NotFound')) return [];
    throw err;
  }
  return entries
    .filter((e) => e.kind === 'file' && e.name.endsWith('.json'))
    .map((e) => e.name.slice(0, -'.json'.length))
    .filter((id) => isValidJobId(id))
    .sort();
}

import { writeFileAtomic } from '../atomic/atomic-write.js';
import type { FileSystemPort } from '../ports/fs.js';
import { jobPaths } from './job-paths.js';
import type { JobRecord } from './job-record.js';

/**
 * Replaces a job record atomically. Internal: only the job engine calls it, under the registry lock (G6, checked by a source scan).
 * @internal
 */
export async function writeJobRecord(fs: FileSystemPort, registryDir: string, record: JobRecord): Promise<void> {
  await writeFileAtomic(fs, jobPaths.record(registryDir, record.job_id), `${JSON.stringify(record, null, 2)}\n`);
}

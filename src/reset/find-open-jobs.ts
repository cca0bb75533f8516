import { join } from 'node:path';
import type { FileSystemPort } from '../ports/fs.js';
import { listJobIds } from '../jobs/job-record-reader.js';
import { isJobStatus, isTerminalStatus } from '../jobs/job-status.js';
import type { ResetRefusal } from './reset-refusal.js';

/**
 * The open jobs (a record under `.mam/jobs/` whose status is not terminal) owned by one of the names, as refusals naming
 * the command that closes each; a record that is not JSON is passed over (it cannot name an owner).
 * @public
 */
export async function findOpenJobs(fs: FileSystemPort, workspace: string, names: ReadonlySet<string>): Promise<Extract<ResetRefusal, { kind: 'open-job' }>[]> {
  const dir = join(workspace, '.mam', 'jobs');
  const out: Extract<ResetRefusal, { kind: 'open-job' }>[] = [];
  for (const id of await listJobIds(fs, dir)) {
    let body: unknown;
    try {
      body = JSON.parse(await fs.readText(join(dir, `${id}.json`)));
    } catch {
      continue;
    }
    if (typeof body !== 'object' || body === null) continue;
    const rec = body as Record<string, unknown>;
    const owner = typeof rec['agent_session'] === 'string' && rec['agent_session'].startsWith('herdr:') ? rec['agent_session'].slice('herdr:'.length) : null;
    if (owner === null || !names.has(owner)) continue;
    const status = rec['status'];
    if (isJobStatus(status) && isTerminalStatus(status)) continue;
    const shown = typeof status === 'string' ? status : 'unknown';
    out.push({
      kind: 'open-job',
      job: id,
      target: owner,
      status: shown,
      message: `job ${id} of ${owner} is open (status ${shown}); finish it or close it first: close --job ${id} --request cancelled`,
    });
  }
  return out;
}

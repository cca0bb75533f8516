import { isPortError } from '../errors.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { JobAuditEvent } from './job-audit-event.js';
import { JobAuditError } from './job-audit-error.js';
import { jobPaths } from './job-paths.js';
import type { JobStatus } from './job-status.js';

function isEvent(v: unknown): v is JobAuditEvent {
  if (typeof v !== 'object' || v === null) return false;
  const e = v as Record<string, unknown>;
  return (e['event'] === 'status_changed' || e['event'] === 'conflict_refused') && typeof e['transition_seq'] === 'number';
}

/**
 * A job's audit log: JSON lines per job in the logs dir, appended after the registry lock is released and read back ordered by `transition_seq`.
 * @example
 * ```ts
 * const events = await engine.audit.read(jobId); // [{ event: 'status_changed', from: 'pending', to: 'running', … }]
 * ```
 * @public
 */
export class JobAuditLog {
  readonly #fs: FileSystemPort;

  /** A log over `logsDir`, read and appended through the given filesystem port. */
  constructor(
    /** The directory holding one `<job_id>.jsonl` per job. */
    readonly logsDir: string,
    fs: FileSystemPort,
  ) {
    this.#fs = fs;
  }

  /** Appends events (one line each); rejects with a `JobAuditError` when the line cannot be written. */
  async append(jobId: string, events: readonly JobAuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    const path = jobPaths.auditLog(this.logsDir, jobId);
    try {
      await this.#fs.mkdir(this.logsDir, { recursive: true });
      await this.#fs.writeFile(path, events.map((e) => `${JSON.stringify(e)}\n`).join(''), { append: true });
    } catch (err) {
      throw new JobAuditError(jobId, path, { cause: err });
    }
  }

  /** Every event logged for the job, ordered by `transition_seq` (ties keep file order); a torn line is skipped. */
  async read(jobId: string): Promise<JobAuditEvent[]> {
    let text: string;
    try {
      text = await this.#fs.readText(jobPaths.auditLog(this.logsDir, jobId));
    } catch (err) {
      if (isPortError(err, 'NotFound')) return [];
      throw err;
    }
    const events: JobAuditEvent[] = [];
    for (const line of text.split('\n')) {
      if (line.trim() === '') continue;
      try {
        const v: unknown = JSON.parse(line);
        if (isEvent(v)) events.push(v);
      } catch {
        // A crash mid-append leaves at most one torn line; it carries nothing committed.
      }
    }
    return events.map((e, i) => ({ e, i })).sort((a, b) => a.e.transition_seq - b.e.transition_seq || a.i - b.i).map(({ e }) => e);
  }

  /** The status of the latest `status_changed` event, or null when none was logged. */
  async lastStatus(jobId: string): Promise<JobStatus | null> {
    const changes = (await this.read(jobId)).filter((e) => e.event === 'status_changed');
    return changes.at(-1)?.to ?? null;
  }
}

// `@mam/core/jobs`: Delegated jobs: the engine, the records, the audit log, the id and status helpers.
// The whole part; its documented names are also exported by the package root.

// jobs
export { JobArgumentError } from '../jobs/job-argument-error.js';
export { JobAuditError } from '../jobs/job-audit-error.js';
export { type ConflictRefusedEvent, type JobAuditEvent, type StatusChangedEvent } from '../jobs/job-audit-event.js';
export { JobEngine, type JobEngineOptions, type JobUpdateResult, type RegisterJobOptions, type TransitionOptions, type TransitionResult } from '../jobs/job-engine.js';
export { isValidJobId, newJobId, requireJobId } from '../jobs/job-id.js';
export { JobNotFoundError } from '../jobs/job-not-found-error.js';
export { JobRecordCorruptError } from '../jobs/job-record-corrupt-error.js';
export { listJobIds, readJobRecord } from '../jobs/job-record-reader.js';
export { type JobRecord, jobRecordSchema, RESERVED_JOB_FIELDS } from '../jobs/job-record.js';
export { isJobStatus, isTerminalStatus, JOB_STATUSES, type JobStatus, type TerminalJobStatus } from '../jobs/job-status.js';
export { isTransitionRequest, TRANSITION_REQUESTS, type TransitionRequest } from '../jobs/transition-table.js';
export { type TransitionGuards } from '../jobs/decide-transition.js';
export { JobAuditLog } from '../jobs/job-audit-log.js';

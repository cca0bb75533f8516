import type { z } from 'zod';
import { lazySchema } from '../lazy-zod.js';
import { JOB_STATUSES } from './job-status.js';

/**
 * The schema of a job record file `<registry_dir>/<job_id>.json`; fields a transition merged are kept as they are.
 * @public
 */
export const jobRecordSchema = lazySchema((z) => z.looseObject({
  job_id: z.string().min(1),
  prompt: z.string(),
  agent_session: z.string().nullable(),
  status: z.enum(JOB_STATUSES),
  attempt_id: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  last_seq: z.number().int().nonnegative(),
  transition_seq: z.number().int().nonnegative(),
}));

/**
 * One job record: identity, prompt, owning session, status, attempt, timestamps, the two counters, and any merged fields.
 * @public
 */
export type JobRecord = z.infer<typeof jobRecordSchema>;

/**
 * The record fields only the engine sets: a caller's `fields` may not name them.
 * @public
 */
export const RESERVED_JOB_FIELDS: readonly string[] = ['job_id', 'status', 'created_at', 'updated_at', 'last_seq', 'transition_seq'];

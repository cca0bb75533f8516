import { JobArgumentError } from './job-argument-error.js';
import { RESERVED_JOB_FIELDS } from './job-record.js';
import { describeError } from '../errors.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
}

/**
 * Returns a JSON-clean copy of the fields a caller asks to merge into a record, or throws a `JobArgumentError` for a reserved field, a non-integer `attempt_id` or a value JSON cannot hold.
 * @public
 */
export function checkJobFields(fields: unknown, extraReserved: readonly string[] = []): Record<string, unknown> {
  if (fields === undefined) return {};
  if (!isPlainObject(fields)) throw new JobArgumentError('fields must be a plain object', { fields: String(fields) });
  const reserved = Object.keys(fields).filter((k) => RESERVED_JOB_FIELDS.includes(k) || extraReserved.includes(k));
  if (reserved.length > 0) throw new JobArgumentError(`fields may not set ${reserved.join(', ')}: the engine owns them`, { fields: reserved });
  const attempt = fields['attempt_id'];
  if (attempt !== undefined && !Number.isSafeInteger(attempt)) throw new JobArgumentError(`attempt_id must be an integer, got ${JSON.stringify(attempt)}`, { attempt_id: attempt });
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(fields));
  } catch (err) {
    throw new JobArgumentError(`fields must be JSON: ${describeError(err)}`, {});
  }
  return copy as Record<string, unknown>;
}

import type { z } from 'zod';
import { lazySchema } from '../lazy-zod.js';
import type { HerdrResult, HerdrServerStatus } from '../ports/herdr.js';
import { serverStatusSchema } from './schemas.js';

/**
 * What running one herdr command produced: it exited (any code), it could not be spawned, or it ran past its deadline.
 * @public
 */
export type HerdrRawOutput =
  | { kind: 'exited'; stdout: string; stderr: string; exitCode: number | null; signal?: string | null }
  | { kind: 'spawn_failed'; message: string }
  | { kind: 'timed_out'; afterMs: number; stdout: string; stderr: string };

/**
 * Reads the answer of one herdr command from its raw output.
 * @public
 */
export type HerdrAnswerParser<T> = (raw: HerdrRawOutput) => HerdrResult<T>;

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function transport<T>(message: string, exitCode: number | null, stderr: string): HerdrResult<T> {
  return { kind: 'transport_error', message, exitCode, stderr };
}

/** Parses one JSON value from `text`: the whole text, else its last non-empty line (a stray warning above it). */
function parseJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    const lines = trimmed.split('\n').filter((l) => l.trim() !== '');
    const last = lines[lines.length - 1];
    if (last === undefined || lines.length < 2) return undefined;
    try {
      return JSON.parse(last);
    } catch {
      return undefined;
    }
  }
}

// Runs for every command: everything but a clean exit 0 is decided here, the same way for every command.
function classify<T>(raw: HerdrRawOutput, onSuccess: (stdout: string, stderr: string) => HerdrResult<T>): HerdrResult<T> {
  switch (raw.kind) {
    case 'spawn_failed':
      return transport(`herdr could not be run: ${raw.message}`, null, '');
    case 'timed_out':
      return transport(`herdr did not answer within ${raw.afterMs} ms`, null, raw.stderr);
    case 'exited':
      break;
    default: {
      const never: never = raw;
      return never;
    }
  }
  const { stdout, stderr, exitCode } = raw;
  if (exitCode === 0) return onSuccess(stdout, stderr);
  if (exitCode === 1) {
    const body = parseJson(stderr);
    const error = isObject(body) ? body['error'] : undefined;
    if (isObject(error) && typeof error['code'] === 'string') {
      const message = typeof error['message'] === 'string' ? error['message'] : '';
      return { kind: 'error', code: error['code'], message, exitCode: 1 };
    }
    return transport(`herdr exited 1 without a JSON error: ${firstLine(stderr)}`, 1, stderr);
  }
  if (exitCode === 2) return { kind: 'error', code: 'usage', message: stderr.trim(), exitCode: 2 };
  const how = exitCode === null ? `was killed${raw.signal ? ` by ${raw.signal}` : ''}` : `exited ${exitCode}`;
  return transport(`herdr ${how}: ${firstLine(stderr)}`, exitCode, stderr);
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line === '' ? '(no output)' : line.slice(0, 300);
}

/**
 * A JSON command: stdout is `{"id":…,"result":{"type":TYPE,…}}`; `pick` takes the value out of `result`.
 * @public
 */
export function jsonAnswer<T>(type: string, pick: (result: JsonObject) => T | undefined): HerdrAnswerParser<T> {
  return (raw) =>
    classify(raw, (stdout, stderr) => {
      const body = parseJson(stdout);
      const result = isObject(body) ? body['result'] : undefined;
      if (!isObject(result)) return transport(`herdr printed no result envelope: ${firstLine(stdout)}`, 0, stderr);
      if (result['type'] !== type) return transport(`herdr answered ${JSON.stringify(result['type'])}, expected ${JSON.stringify(type)}`, 0, stderr);
      const value = pick(result);
      if (value === undefined) return transport(`herdr's ${type} answer lacks the expected fields`, 0, stderr);
      return { kind: 'ok', value };
    });
}

/**
 * A text command (`agent read`, `pane read`): stdout is the text, as printed.
 * @public
 */
export function textAnswer(): HerdrAnswerParser<string> {
  return (raw) => classify(raw, (stdout) => ({ kind: 'ok', value: stdout }));
}

/**
 * A silent command (`pane send-text`, `pane send-keys`): exit 0 is the whole answer.
 * @public
 */
export function silentAnswer(): HerdrAnswerParser<void> {
  return (raw) => classify(raw, () => ({ kind: 'ok', value: undefined }));
}

/**
 * `status server --json`: a bare object, no envelope, validated against the protocol schema.
 * @public
 */
export function statusAnswer(): HerdrAnswerParser<HerdrServerStatus> {
  return (raw) =>
    classify(raw, (stdout, stderr) => {
      const parsed = serverStatusSchema.safeParse(parseJson(stdout));
      if (!parsed.success) return transport(`herdr printed no server status: ${firstLine(stdout)}`, 0, stderr);
      return { kind: 'ok', value: parsed.data as HerdrServerStatus };
    });
}

/**
 * `pick` helper: `result[key]` when it is an array whose every item `schema` accepts (the parsed items, loose fields kept).
 * @public
 */
export function pickObjects<T>(key: string, schema: z.ZodType): (result: JsonObject) => T[] | undefined {
  const list = lazySchema((z) => z.array(schema));
  return (result) => {
    const parsed = list.safeParse(result[key]);
    return parsed.success ? (parsed.data as T[]) : undefined;
  };
}

/**
 * `pick` helper: `result[key]` when `schema` accepts it (the parsed value, loose fields kept).
 * @public
 */
export function pickObject<T>(key: string, schema: z.ZodType): (result: JsonObject) => T | undefined {
  return (result) => {
    const parsed = schema.safeParse(result[key]);
    return parsed.success ? (parsed.data as T) : undefined;
  };
}

/**
 * A JSON command whose success is `{"type":"ok"}` (workspace close, pane close, agent send-keys).
 * @public
 */
export function okAnswer(): HerdrAnswerParser<void> {
  const check = jsonAnswer('ok', () => true);
  return (raw) => {
    const r = check(raw);
    return r.kind === 'ok' ? { kind: 'ok', value: undefined } : r;
  };
}

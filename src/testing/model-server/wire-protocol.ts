import type { PlannedReply, RequestView } from './fake-model-types.js';

/** One server-sent event: an optional `event:` name and its `data:` line. */
export interface SseEvent {
  /** The event name, or undefined for a bare `data:` event. */
  readonly event?: string;
  /** The data payload (JSON text, or `[DONE]`). */
  readonly data: string;
}

/** Per-answer values the wire formats need. */
export interface WireContext {
  /** A fresh id for this answer (the protocols prefix it). */
  readonly id: string;
  /** The model name to echo. */
  readonly model: string;
  /** Whether the client asked for a usage chunk at the end of a stream (Chat Completions). */
  readonly includeUsage: boolean;
}

/** One model API's request reading and answer writing. */
export interface WireProtocol {
  /** Reduces a request body to what turn selection needs. */
  view(body: unknown): RequestView;
  /** The whole answer as one JSON body. */
  json(reply: PlannedReply, ctx: WireContext): unknown;
  /** The answer as a stream of server-sent events. */
  events(reply: PlannedReply, ctx: WireContext): readonly SseEvent[];
}

/** The value as a plain object, or undefined. */
export const asRecord = (x: unknown): Record<string, unknown> | undefined =>
  typeof x === 'object' && x !== null && !Array.isArray(x) ? (x as Record<string, unknown>) : undefined;

/** The value as an array, or an empty one. */
export const asArray = (x: unknown): readonly unknown[] => (Array.isArray(x) ? x : []);

/** The value as a string, or ''. */
export const asString = (x: unknown): string => (typeof x === 'string' ? x : '');

/** The text of a content value that is a string or an array of `{ text }` parts. */
export const contentText = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : asArray(content)
        .map((p) => asString(asRecord(p)?.['text']))
        .filter((t) => t.length > 0)
        .join('\n');

/** An SSE event carrying the JSON of a value. */
export const sse = (data: unknown, event?: string): SseEvent =>
  event === undefined ? { data: JSON.stringify(data) } : { event, data: JSON.stringify(data) };

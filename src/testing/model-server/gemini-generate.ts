import type { PlannedReply, RequestView } from './fake-model-types.js';
import { asArray, asRecord, asString, sse, type SseEvent, type WireContext, type WireProtocol } from './wire-protocol.js';

const partsOf = (content: unknown): readonly Record<string, unknown>[] =>
  asArray(asRecord(content)?.['parts']).flatMap((p) => {
    const r = asRecord(p);
    return r === undefined ? [] : [r];
  });

const view = (body: unknown): RequestView => {
  const b = asRecord(body);
  const last = asRecord(asArray(b?.['contents']).at(-1));
  const parts = partsOf(last);
  // Gemini CLI sends a tool's output back as a `functionResponse` part of a user-role content.
  const afterTool = parts.some((p) => p['functionResponse'] !== undefined);
  const text = parts
    .map((p) => asString(p['text']))
    .filter((t) => t.length > 0)
    .join('\n');
  const tools = asArray(b?.['tools'])
    .flatMap((t) => asArray(asRecord(t)?.['functionDeclarations']))
    .map((d) => asString(asRecord(d)?.['name']))
    .filter((n) => n.length > 0)
    .map((name) => ({ name }));
  return { userText: last?.['role'] === 'user' && !afterTool ? text : '', afterTool, tools };
};

const part = (reply: PlannedReply): Record<string, unknown> =>
  reply.kind === 'text' ? { text: reply.text } : { functionCall: { name: reply.call.name, args: reply.call.input } };

// `finishReason` is required: without it Gemini CLI 0.61 takes the answer as cut off and retries the request.
const response = (reply: PlannedReply, ctx: WireContext): Record<string, unknown> => ({
  candidates: [{ content: { role: 'model', parts: [part(reply)] }, finishReason: 'STOP', index: 0 }],
  usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
  modelVersion: ctx.model,
  responseId: ctx.id,
});

const events = (reply: PlannedReply, ctx: WireContext): SseEvent[] => [sse(response(reply, ctx))];

/**
 * The Gemini API (`POST /v1beta/models/<model>:generateContent`, and `:streamGenerateContent?alt=sse` whose every event
 * is a whole `GenerateContentResponse`), as Gemini CLI speaks it.
 */
export const geminiGenerate: WireProtocol = {
  view,
  json: response,
  events,
};

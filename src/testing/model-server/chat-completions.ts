import type { PlannedReply, RequestView } from './fake-model-types.js';
import { asArray, asRecord, asString, contentText, sse, type SseEvent, type WireContext, type WireProtocol } from './wire-protocol.js';

const view = (body: unknown): RequestView => {
  const b = asRecord(body);
  const last = asRecord(asArray(b?.['messages']).at(-1));
  const afterTool = last?.['role'] === 'tool';
  const tools = asArray(b?.['tools'])
    .map((t) => asString(asRecord(asRecord(t)?.['function'])?.['name']))
    .filter((n) => n.length > 0)
    .map((name) => ({ name }));
  return { userText: last?.['role'] === 'user' ? contentText(last['content']) : '', afterTool, tools };
};

const finish = (reply: PlannedReply): string => (reply.kind === 'text' ? 'stop' : 'tool_calls');

const toolCall = (reply: PlannedReply & { kind: 'tool' }, ctx: WireContext) => ({
  id: `call_${ctx.id}`,
  type: 'function',
  function: { name: reply.call.name, arguments: JSON.stringify(reply.call.input) },
});

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

const chunk = (ctx: WireContext, choices: unknown[], extra: Record<string, unknown> = {}) =>
  sse({ id: `chatcmpl-${ctx.id}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: ctx.model, choices, ...extra });

const events = (reply: PlannedReply, ctx: WireContext): SseEvent[] => {
  const delta =
    reply.kind === 'text'
      ? { role: 'assistant', content: reply.text }
      : { role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall(reply, ctx) }] };
  return [
    chunk(ctx, [{ index: 0, delta, finish_reason: null }]),
    chunk(ctx, [{ index: 0, delta: {}, finish_reason: finish(reply) }]),
    ...(ctx.includeUsage ? [chunk(ctx, [], { usage })] : []),
    { data: '[DONE]' },
  ];
};

/** The OpenAI Chat Completions API (`POST /v1/chat/completions`), as OpenCode's OpenAI-compatible provider speaks it. */
export const chatCompletions: WireProtocol = {
  view,
  json: (reply, ctx) => ({
    id: `chatcmpl-${ctx.id}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: ctx.model,
    choices: [
      {
        index: 0,
        message:
          reply.kind === 'text'
            ? { role: 'assistant', content: reply.text }
            : { role: 'assistant', content: null, tool_calls: [toolCall(reply, ctx)] },
        finish_reason: finish(reply),
      },
    ],
    usage,
  }),
  events,
};

import type { PlannedReply, RequestView } from './fake-model-types.js';
import { asArray, asRecord, asString, contentText, sse, type SseEvent, type WireContext, type WireProtocol } from './wire-protocol.js';

const TOOL_OUTPUTS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

// A namespace tool (`{ type: 'namespace', name, tools: [...] }`) groups functions such as Codex's multi-agent ones.
const toolsOf = (tools: unknown, namespace?: string): RequestView['tools'] =>
  asArray(tools).flatMap((t) => {
    const r = asRecord(t);
    const name = asString(r?.['name']);
    if (r?.['type'] === 'namespace') return toolsOf(r['tools'], name);
    if (name.length === 0) return [];
    return [namespace === undefined ? { name } : { name, namespace }];
  });

const view = (body: unknown): RequestView => {
  const b = asRecord(body);
  const input = b?.['input'];
  const tools = toolsOf(b?.['tools']);
  if (typeof input === 'string') return { userText: input, afterTool: false, tools };
  const last = asRecord(asArray(input).at(-1));
  const afterTool = TOOL_OUTPUTS.has(asString(last?.['type']));
  const isUser = last?.['role'] === 'user' && (last['type'] === undefined || last['type'] === 'message');
  return { userText: isUser ? contentText(last['content']) : '', afterTool, tools };
};

const item = (reply: PlannedReply, ctx: WireContext): Record<string, unknown> => {
  if (reply.kind === 'text') {
    return {
      type: 'message',
      id: `msg_${ctx.id}`,
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text, annotations: [] }],
    };
  }
  const base = {
    type: 'function_call',
    id: `fc_${ctx.id}`,
    call_id: `call_${ctx.id}`,
    name: reply.call.name,
    arguments: JSON.stringify(reply.call.input),
    status: 'completed',
  };
  return reply.call.namespace === undefined ? base : { ...base, namespace: reply.call.namespace };
};

const usage = { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 };

const response = (ctx: WireContext, status: string, output: unknown[]): Record<string, unknown> => ({
  id: `resp_${ctx.id}`,
  object: 'response',
  created_at: 1_700_000_000,
  status,
  model: ctx.model,
  output,
  usage: status === 'completed' ? usage : null,
});

const events = (reply: PlannedReply, ctx: WireContext): SseEvent[] => {
  const done = item(reply, ctx);
  const added = reply.kind === 'text' ? { ...done, status: 'in_progress', content: [] } : { ...done, status: 'in_progress', arguments: '' };
  const middle: SseEvent[] =
    reply.kind === 'text'
      ? [
          sse({ type: 'response.content_part.added', item_id: done['id'], output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }, 'response.content_part.added'),
          sse({ type: 'response.output_text.delta', item_id: done['id'], output_index: 0, content_index: 0, delta: reply.text }, 'response.output_text.delta'),
          sse({ type: 'response.output_text.done', item_id: done['id'], output_index: 0, content_index: 0, text: reply.text }, 'response.output_text.done'),
        ]
      : [
          sse({ type: 'response.function_call_arguments.delta', item_id: done['id'], output_index: 0, delta: done['arguments'] }, 'response.function_call_arguments.delta'),
          sse({ type: 'response.function_call_arguments.done', item_id: done['id'], output_index: 0, arguments: done['arguments'] }, 'response.function_call_arguments.done'),
        ];
  return [
    sse({ type: 'response.created', response: response(ctx, 'in_progress', []) }, 'response.created'),
    sse({ type: 'response.in_progress', response: response(ctx, 'in_progress', []) }, 'response.in_progress'),
    sse({ type: 'response.output_item.added', output_index: 0, item: added }, 'response.output_item.added'),
    ...middle,
    sse({ type: 'response.output_item.done', output_index: 0, item: done }, 'response.output_item.done'),
    sse({ type: 'response.completed', response: response(ctx, 'completed', [done]) }, 'response.completed'),
  ];
};

/** The OpenAI Responses API (`POST /v1/responses`), as Codex speaks it. */
export const openaiResponses: WireProtocol = {
  view,
  json: (reply, ctx) => response(ctx, 'completed', [item(reply, ctx)]),
  events,
};

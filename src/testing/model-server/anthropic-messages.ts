import type { PlannedReply, RequestView } from './fake-model-types.js';
import { asArray, asRecord, asString, contentText, sse, type SseEvent, type WireContext, type WireProtocol } from './wire-protocol.js';

const view = (body: unknown): RequestView => {
  const b = asRecord(body);
  // Claude Code 2.1 sends a trailing `system` message after the user's; the turn is the last non-system one.
  const last = asRecord(asArray(b?.['messages']).findLast((m) => asRecord(m)?.['role'] !== 'system'));
  const content = last?.['content'];
  const afterTool = asArray(content).some((p) => asRecord(p)?.['type'] === 'tool_result');
  const tools = asArray(b?.['tools'])
    .map((t) => asString(asRecord(t)?.['name']))
    .filter((n) => n.length > 0)
    .map((name) => ({ name }));
  return { userText: last?.['role'] === 'user' && !afterTool ? contentText(content) : '', afterTool, tools };
};

const block = (reply: PlannedReply, ctx: WireContext): Record<string, unknown> =>
  reply.kind === 'text'
    ? { type: 'text', text: reply.text }
    : { type: 'tool_use', id: `toolu_${ctx.id}`, name: reply.call.name, input: reply.call.input };

const stopReason = (reply: PlannedReply): string => (reply.kind === 'text' ? 'end_turn' : 'tool_use');

const message = (ctx: WireContext, content: unknown[], stop: string | null): Record<string, unknown> => ({
  id: `msg_${ctx.id}`,
  type: 'message',
  role: 'assistant',
  model: ctx.model,
  content,
  stop_reason: stop,
  stop_sequence: null,
  usage: { input_tokens: 10, output_tokens: stop === null ? 0 : 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
});

const events = (reply: PlannedReply, ctx: WireContext): SseEvent[] => {
  const start =
    reply.kind === 'text'
      ? { type: 'text', text: '' }
      : { type: 'tool_use', id: `toolu_${ctx.id}`, name: reply.call.name, input: {} };
  const delta =
    reply.kind === 'text'
      ? { type: 'text_delta', text: reply.text }
      : { type: 'input_json_delta', partial_json: JSON.stringify(reply.call.input) };
  return [
    sse({ type: 'message_start', message: message(ctx, [], null) }, 'message_start'),
    sse({ type: 'content_block_start', index: 0, content_block: start }, 'content_block_start'),
    sse({ type: 'content_block_delta', index: 0, delta }, 'content_block_delta'),
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse({ type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: 5 } }, 'message_delta'),
    sse({ type: 'message_stop' }, 'message_stop'),
  ];
};

/** The Anthropic Messages API (`POST /v1/messages`), as Claude Code speaks it. */
export const anthropicMessages: WireProtocol = {
  view,
  json: (reply, ctx) => message(ctx, [block(reply, ctx)], stopReason(reply)),
  events,
};

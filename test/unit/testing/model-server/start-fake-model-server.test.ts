import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../../../../src/testing/index.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (path: string, body: unknown): Promise<Response> =>
  fetch(`${server!.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

interface Sse {
  event: string | undefined;
  data: string;
}

// A strict SSE parse: every event is `event:`/`data:` lines ended by a blank line, and nothing is left over.
const parseSse = (text: string): Sse[] => {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      let event: string | undefined;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data = line.slice(6);
        else throw new Error(`not an SSE line: ${line}`);
      }
      return { event, data };
    });
};

const anthropicTools = [{ name: 'Bash', input_schema: {} }, { name: 'Task', input_schema: {} }];
const responsesTools = [{ type: 'function', name: 'exec_command' }, { type: 'function', name: 'spawn_agent' }];
const geminiTools = [{ functionDeclarations: [{ name: 'read_file' }, { name: 'run_shell_command' }] }];
const chatTools = [{ type: 'function', function: { name: 'bash' } }, { type: 'function', function: { name: 'task' } }];

describe('startFakeModelServer', () => {
  it('listens on 127.0.0.1 on an ephemeral port', async () => {
    server = await startFakeModelServer();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('Anthropic Messages, plain JSON: a text turn, then the default', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'text', text: 'first answer' }] });
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }], tools: anthropicTools };
    const a = (await (await post('/v1/messages', body)).json()) as { content: { type: string; text: string }[]; stop_reason: string };
    expect(a.content).toEqual([{ type: 'text', text: 'first answer' }]);
    expect(a.stop_reason).toBe('end_turn');
    const b = (await (await post('/v1/messages?beta=true', body)).json()) as { content: { text: string }[] };
    expect(b.content[0]?.text).toBe('ok');
    expect(server.requests.map((r) => r.reply)).toEqual(['text', 'default']);
  });

  it('Anthropic Messages, streamed: a Bash tool_use whose input JSON assembles from the deltas', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'shell', command: 'sleep 30', when: 'KEEP' }] });
    const res = await post('/v1/messages', { stream: true, messages: [{ role: 'user', content: [{ type: 'text', text: 'please KEEP' }] }], tools: anthropicTools });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    for (const e of events) expect((JSON.parse(e.data) as { type: string }).type).toBe(e.event);
    const start = JSON.parse(events[1]!.data) as { content_block: { type: string; name: string } };
    expect(start.content_block).toMatchObject({ type: 'tool_use', name: 'Bash' });
    const delta = JSON.parse(events[2]!.data) as { delta: { partial_json: string } };
    expect(JSON.parse(delta.delta.partial_json)).toEqual({ command: 'sleep 30', description: 'Run a command' });
    expect((JSON.parse(events[4]!.data) as { delta: { stop_reason: string } }).delta.stop_reason).toBe('tool_use');
  });

  it('a tool result gets the after-tool text, and a `when` turn answers every match', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'shell', command: 'true', when: 'RUN' }], afterToolText: 'finished' });
    const ask = { messages: [{ role: 'user', content: 'RUN it' }], tools: anthropicTools };
    const result = { messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }], tools: anthropicTools };
    const kinds: string[] = [];
    for (const body of [ask, result, ask]) {
      const r = (await (await post('/v1/messages', body)).json()) as { content: { type: string; text?: string }[] };
      kinds.push(r.content[0]!.type === 'text' ? r.content[0]!.text! : r.content[0]!.type);
    }
    expect(kinds).toEqual(['tool_use', 'finished', 'tool_use']);
  });

  it('a turn whose tool the request does not offer is skipped, not consumed', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'spawn', prompt: 'child' }] });
    const noTools = (await (await post('/v1/messages', { messages: [{ role: 'user', content: 'title?' }] })).json()) as { content: { type: string }[] };
    expect(noTools.content[0]!.type).toBe('text');
    const withTools = (await (await post('/v1/messages', { messages: [{ role: 'user', content: 'go' }], tools: anthropicTools })).json()) as {
      content: { type: string; name: string; input: unknown }[];
    };
    expect(withTools.content[0]).toMatchObject({ type: 'tool_use', name: 'Task', input: { prompt: 'child', subagent_type: 'general-purpose' } });
  });

  it('Anthropic Messages: a trailing system message does not hide the user turn; Agent spawns run in the foreground', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'spawn', prompt: 'sub task', when: 'SPAWN' }] });
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'please SPAWN' }] },
      { role: 'system', content: [{ type: 'text', text: '# Environment' }] },
    ];
    const r = (await (await post('/v1/messages', { messages, tools: [{ name: 'Agent' }, { name: 'Bash' }] })).json()) as { content: { name: string; input: unknown }[] };
    expect(r.content[0]).toMatchObject({ name: 'Agent', input: { prompt: 'sub task', run_in_background: false } });
    expect(server.requests[0]!.userText).toBe('please SPAWN');
  });

  it('OpenAI Responses, streamed: an exec_command function call ending in response.completed', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'shell', command: 'echo hi' }] });
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }];
    const events = parseSse(await (await post('/v1/responses', { stream: true, input, tools: responsesTools })).text());
    expect(events[0]!.event).toBe('response.created');
    expect(events.at(-1)!.event).toBe('response.completed');
    const done = events.find((e) => e.event === 'response.output_item.done')!;
    const item = (JSON.parse(done.data) as { item: { type: string; name: string; arguments: string; call_id: string } }).item;
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(item.arguments)).toEqual({ cmd: 'echo hi' });
    const completed = JSON.parse(events.at(-1)!.data) as { response: { status: string; output: unknown[]; usage: { total_tokens: number } } };
    expect(completed.response.status).toBe('completed');
    expect(completed.response.output).toEqual([item]);
  });

  it('OpenAI Responses: a spawn_agent call (namespaced tools keep their namespace), then text after its output', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'spawn', prompt: 'child task' }] });
    const tools = [{ type: 'namespace', name: 'multi_agent_v1', tools: [{ type: 'function', name: 'spawn_agent' }] }];
    const first = (await (await post('/v1/responses', { input: 'spawn one', tools })).json()) as { output: { name: string; namespace: string; arguments: string }[] };
    expect(first.output[0]).toMatchObject({ name: 'spawn_agent', namespace: 'multi_agent_v1' });
    expect(JSON.parse(first.output[0]!.arguments)).toEqual({ message: 'child task' });
    const input = [{ type: 'function_call_output', call_id: 'c', output: 'spawned' }];
    const events = parseSse(await (await post('/v1/responses', { stream: true, input, tools })).text());
    const deltas = events.filter((e) => e.event === 'response.output_text.delta').map((e) => (JSON.parse(e.data) as { delta: string }).delta);
    expect(deltas.join('')).toBe('done');
  });

  it('Chat Completions, streamed: a bash tool call chunk, a finish chunk, usage when asked, then [DONE]', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'shell', command: 'sleep 5' }] });
    const body = { stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'go' }], tools: chatTools };
    const events = parseSse(await (await post('/v1/chat/completions', body)).text());
    expect(events.at(-1)).toEqual({ event: undefined, data: '[DONE]' });
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.data) as { choices: { delta: { tool_calls?: { function: { name: string; arguments: string } }[] }; finish_reason: string | null }[]; usage?: unknown });
    const call = chunks[0]!.choices[0]!.delta.tool_calls![0]!.function;
    expect(call.name).toBe('bash');
    expect(JSON.parse(call.arguments)).toEqual({ command: 'sleep 5', description: 'Run a command' });
    expect(chunks[1]!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks[2]!.usage).toBeDefined();
  });

  it('Chat Completions, plain JSON: text, and a task spawn for OpenCode', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'text', text: 'hello' }, { kind: 'spawn', prompt: 'sub' }] });
    const body = { messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], tools: chatTools };
    const a = (await (await post('/v1/chat/completions', body)).json()) as { choices: { message: { content: string }; finish_reason: string }[] };
    expect(a.choices[0]).toMatchObject({ message: { content: 'hello' }, finish_reason: 'stop' });
    const b = (await (await post('/v1/chat/completions', body)).json()) as { choices: { message: { tool_calls: { function: { name: string; arguments: string } }[] } }[] };
    const fn = b.choices[0]!.message.tool_calls[0]!.function;
    expect(fn.name).toBe('task');
    expect(JSON.parse(fn.arguments)).toMatchObject({ prompt: 'sub', subagent_type: 'general' });
  });

  it('Gemini API, streamed by its path: a run_shell_command functionCall in one SSE event with a finishReason', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'shell', command: 'sleep 30', when: 'KEEP' }] });
    const contents = [
      { role: 'user', parts: [{ text: '<session_context>…</session_context>' }] },
      { role: 'user', parts: [{ text: 'please KEEP' }] },
    ];
    const res = await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents, tools: geminiTools });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    expect(events).toHaveLength(1);
    expect(events[0]!.event).toBeUndefined();
    const candidate = (JSON.parse(events[0]!.data) as { candidates: { content: { role: string; parts: unknown[] }; finishReason: string }[] }).candidates[0]!;
    expect(candidate.content).toEqual({ role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'sleep 30' } } }] });
    expect(candidate.finishReason).toBe('STOP');
    expect(server.requests[0]).toMatchObject({ api: 'gemini-generate-content', stream: true, userText: 'please KEEP', tools: ['read_file', 'run_shell_command'], reply: 'shell' });
  });

  it('Gemini API: a functionResponse gets the after-tool text; :generateContent answers plain JSON; :countTokens a count', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'text', text: 'a title' }] });
    const contents = [
      { role: 'user', parts: [{ text: 'go' }] },
      { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: { command: 'true' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: { output: 'x' } } }] },
    ];
    const events = parseSse(await (await post('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse', { contents, tools: geminiTools })).text());
    const after = JSON.parse(events[0]!.data) as { candidates: { content: { parts: unknown[] }; finishReason: string }[] };
    expect(after.candidates[0]).toMatchObject({ content: { parts: [{ text: 'done' }] }, finishReason: 'STOP' });
    const res = await post('/v1beta/models/gemini-3.5-flash-lite:generateContent', { contents: [{ role: 'user', parts: [{ text: 'title?' }] }] });
    expect(res.headers.get('content-type')).toBe('application/json');
    const json = (await res.json()) as { candidates: { content: { parts: unknown[] }; finishReason: string }[]; usageMetadata: unknown };
    expect(json.candidates[0]).toMatchObject({ content: { parts: [{ text: 'a title' }] }, finishReason: 'STOP' });
    expect(json.usageMetadata).toBeDefined();
    expect(((await (await post('/v1beta/models/gemini-2.5-flash:countTokens', { contents: [] })).json()) as { totalTokens: number }).totalTokens).toBe(10);
    expect(server.requests.map((r) => [r.api, r.stream, r.reply])).toEqual([
      ['gemini-generate-content', true, 'after-tool'],
      ['gemini-generate-content', false, 'text'],
      ['other', false, 'none'],
    ]);
  });

  it('records every request, answers /v1/models, and 404s what it does not serve', async () => {
    server = await startFakeModelServer();
    expect(((await (await fetch(`${server.url}/v1/models`)).json()) as { data: { id: string }[] }).data[0]!.id).toBe('fake-model');
    expect((await fetch(`${server.url}/nope`)).status).toBe(404);
    expect(server.requests.map((r) => [r.method, r.path, r.reply])).toEqual([
      ['GET', '/v1/models', 'none'],
      ['GET', '/nope', 'none'],
    ]);
  });

  it('delayMs holds a streamed answer open after the headers; close() ends it', async () => {
    server = await startFakeModelServer({ script: [{ kind: 'text', text: 'late', delayMs: 60_000 }] });
    const res = await post('/v1/chat/completions', { stream: true, messages: [{ role: 'user', content: 'x' }] });
    expect(res.status).toBe(200);
    const reading = res.text().then(
      (t) => t,
      () => 'aborted',
    );
    await server.close();
    server = undefined;
    expect(await reading).not.toContain('late');
  });
});

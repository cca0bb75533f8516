import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicMessages } from './anthropic-messages.js';
import { chatCompletions } from './chat-completions.js';
import type { FakeModelApi, FakeModelRequest, FakeModelServer, FakeModelServerOptions } from './fake-model-types.js';
import { geminiGenerate } from './gemini-generate.js';
import { openaiResponses } from './openai-responses.js';
import { planReply, type ScriptState } from './plan-reply.js';
import { readBody } from './read-body.js';
import { asRecord, type SseEvent, type WireProtocol } from './wire-protocol.js';
import { checkModelServerOptions } from '../testing-args.js';

const PROTOCOLS: Readonly<Record<Exclude<FakeModelApi, 'other'>, WireProtocol>> = {
  'anthropic-messages': anthropicMessages,
  'openai-responses': openaiResponses,
  'chat-completions': chatCompletions,
  'gemini-generate-content': geminiGenerate,
};

const apiOf = (path: string): FakeModelApi => {
  if (path.endsWith('/messages')) return 'anthropic-messages';
  if (path.endsWith('/responses')) return 'openai-responses';
  if (path.endsWith('/chat/completions')) return 'chat-completions';
  if (path.endsWith(':generateContent') || path.endsWith(':streamGenerateContent')) return 'gemini-generate-content';
  return 'other';
};

const sendJson = (res: ServerResponse, status: number, value: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
};

const writeEvent = (res: ServerResponse, e: SseEvent): void => {
  res.write(e.event === undefined ? `data: ${e.data}\n\n` : `event: ${e.event}\ndata: ${e.data}\n\n`);
};

/**
 * Starts a loopback model server (127.0.0.1, an ephemeral port) that answers the Anthropic Messages API, the OpenAI
 * Responses API, Chat Completions and the Gemini API (`generateContent`, `streamGenerateContent`), streamed or not,
 * from a script of turns, so real agent CLIs run with no network and no keys.
 *
 * @example
 * ```ts
 * const server = await startFakeModelServer({ script: [{ kind: 'shell', command: 'sleep 30', when: 'KEEP-ALIVE' }] });
 * // ANTHROPIC_BASE_URL=server.url, GOOGLE_GEMINI_BASE_URL=server.url, or an OpenAI-style provider with base URL `${server.url}/v1`
 * await server.close();
 * ```
 * @public
 */
export async function startFakeModelServer(opts: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  checkModelServerOptions(opts);
  const state: ScriptState = { script: opts.script ?? [], used: new Set() };
  const texts = { defaultText: opts.defaultText ?? 'ok', afterToolText: opts.afterToolText ?? 'done' };
  const model = opts.model ?? 'fake-model';
  const requests: FakeModelRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let counter = 0;

  const wait = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const t = setTimeout(() => {
            timers.delete(t);
            resolve();
          }, ms);
          timers.add(t);
        });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? '/';
    const bare = path.split('?')[0] ?? path;
    const method = req.method ?? 'GET';
    const body = method === 'POST' ? await readBody(req) : undefined;
    const api = apiOf(bare);
    // The Gemini API streams by its path (`:streamGenerateContent`), the others by a body field.
    const stream = api === 'gemini-generate-content' ? bare.endsWith(':streamGenerateContent') : asRecord(body)?.['stream'] === true;
    if (api === 'other' || method !== 'POST') {
      requests.push({ api, method, path, stream, body, userText: '', tools: [], reply: 'none' });
      if (bare.endsWith('/count_tokens')) return sendJson(res, 200, { input_tokens: 10 });
      if (bare.endsWith(':countTokens')) return sendJson(res, 200, { totalTokens: 10 });
      if (bare.endsWith('/models')) return sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'fake' }] });
      return sendJson(res, 404, { error: { type: 'not_found', message: `the fake model server does not serve ${method} ${bare}` } });
    }
    const protocol = PROTOCOLS[api];
    const view = protocol.view(body);
    const plan = planReply(view, state, texts);
    requests.push({ api, method, path, stream, body, userText: view.userText, tools: view.tools.map((t) => t.name), reply: plan.recorded });
    counter += 1;
    const includeUsage = asRecord(asRecord(body)?.['stream_options'])?.['include_usage'] === true;
    const ctx = { id: `fake${String(counter).padStart(6, '0')}`, model, includeUsage };
    if (!stream) {
      await wait(plan.delayMs);
      return sendJson(res, 200, protocol.json(plan.reply, ctx));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    await wait(plan.delayMs);
    for (const e of protocol.events(plan.reply, ctx)) writeEvent(res, e);
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { type: 'fake_server_error', message: String(err) } });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

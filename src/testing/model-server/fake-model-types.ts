/**
 * One scripted answer of the fake model server: what the model "says" for one request.
 * @public
 */
export type FakeModelTurn =
  | {
      /** A plain text reply that ends the turn. */
      readonly kind: 'text';
      /** The reply text. */
      readonly text: string;
      /** Answer only requests whose latest user text contains this (and then any number of times); unset: next in order, once. */
      readonly when?: string;
      /** Milliseconds to wait (headers already sent when streaming) before the reply: keeps a turn in flight. */
      readonly delayMs?: number;
    }
  | {
      /** A call of the CLI's shell tool (`Bash`, `exec_command`, `shell`, `bash` or `run_shell_command`, whichever the request offers). */
      readonly kind: 'shell';
      /** The command line the tool runs (e.g. a long sleep, to keep the session alive). */
      readonly command: string;
      /** Answer only requests whose latest user text contains this (and then any number of times); unset: next in order, once. */
      readonly when?: string;
      /** Milliseconds to wait before the reply. */
      readonly delayMs?: number;
    }
  | {
      /** A sub-agent spawn (`spawn_agent`, `task`, `Task` or `Agent`, whichever the request offers). */
      readonly kind: 'spawn';
      /** The task given to the sub-agent. */
      readonly prompt: string;
      /** Answer only requests whose latest user text contains this (and then any number of times); unset: next in order, once. */
      readonly when?: string;
      /** Milliseconds to wait before the reply. */
      readonly delayMs?: number;
    }
  | {
      /** A call of a named tool with explicit arguments. */
      readonly kind: 'tool';
      /** The tool's name as the request offers it. */
      readonly name: string;
      /** The tool's arguments. */
      readonly input: Readonly<Record<string, unknown>>;
      /** Answer only requests whose latest user text contains this (and then any number of times); unset: next in order, once. */
      readonly when?: string;
      /** Milliseconds to wait before the reply. */
      readonly delayMs?: number;
    };

/**
 * Which wire protocol a request to the fake model server spoke.
 * @public
 */
export type FakeModelApi = 'anthropic-messages' | 'openai-responses' | 'chat-completions' | 'gemini-generate-content' | 'other';

/**
 * One request the fake model server received, recorded for the test to inspect.
 * @public
 */
export interface FakeModelRequest {
  /** The protocol, from the path. */
  readonly api: FakeModelApi;
  /** The HTTP method. */
  readonly method: string;
  /** The request path (query included). */
  readonly path: string;
  /** Whether the client asked for a streamed (SSE) answer (by a body field, or the Gemini API's `:streamGenerateContent` path). */
  readonly stream: boolean;
  /** The parsed JSON body, or undefined when there was none or it was not JSON. */
  readonly body: unknown;
  /** The latest user text the request carried ('' when none). */
  readonly userText: string;
  /** The names of the tools the request offered. */
  readonly tools: readonly string[];
  /** What the server answered: a turn kind, 'after-tool' (the reply to a tool result), 'default' or 'none' (not a model call). */
  readonly reply: FakeModelTurn['kind'] | 'after-tool' | 'default' | 'none';
}

/**
 * Options of {@link startFakeModelServer}.
 * @public
 */
export interface FakeModelServerOptions {
  /** The scripted turns (see {@link FakeModelTurn}); requests nothing matches get `defaultText`. */
  readonly script?: readonly FakeModelTurn[];
  /** The reply when no turn applies; default 'ok'. */
  readonly defaultText?: string;
  /** The reply to a request whose latest input is a tool result; default 'done'. */
  readonly afterToolText?: string;
  /** The model name echoed in answers; default 'fake-model'. */
  readonly model?: string;
}

/**
 * A running fake model server bound to 127.0.0.1.
 * @public
 */
export interface FakeModelServer {
  /** The base URL, `http://127.0.0.1:<port>` (append `/v1` for OpenAI-style clients). */
  readonly url: string;
  /** The ephemeral port the server listens on. */
  readonly port: number;
  /** Every request received so far, oldest first. */
  readonly requests: readonly FakeModelRequest[];
  /** Stops listening, ends open streams and resolves when the server is closed. */
  close(): Promise<void>;
}

/**
 * A tool call the server decided to make, in protocol-neutral form.
 * @public
 */
export interface PlannedToolCall {
  /** The tool name, exactly as offered. */
  readonly name: string;
  /** The namespace the tool was offered under (OpenAI Responses namespaced tools), if any. */
  readonly namespace?: string;
  /** The arguments. */
  readonly input: Readonly<Record<string, unknown>>;
}

/**
 * What the server answers one model request with, in protocol-neutral form.
 * @public
 */
export type PlannedReply =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'tool'; readonly call: PlannedToolCall };

/**
 * A model request reduced to what turn selection needs.
 * @public
 */
export interface RequestView {
  /** The latest user text ('' when the latest input is not user text). */
  readonly userText: string;
  /** Whether the latest input is a tool result. */
  readonly afterTool: boolean;
  /** The offered tools: name plus the namespace it sits in, if any. */
  readonly tools: readonly { readonly name: string; readonly namespace?: string }[];
}

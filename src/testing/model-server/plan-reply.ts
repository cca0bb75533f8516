import type { FakeModelRequest, FakeModelTurn, PlannedReply, PlannedToolCall, RequestView } from './fake-model-types.js';

/** The mutable part of turn selection: which unconditional turns were already used. */
export interface ScriptState {
  /** The turns, as given. */
  readonly script: readonly FakeModelTurn[];
  /** Indices of unconditional turns already answered. */
  readonly used: Set<number>;
}

/** The outcome of {@link planReply}: the reply, how long to wait first, and what to record. */
export interface ReplyPlan {
  /** The protocol-neutral reply. */
  readonly reply: PlannedReply;
  /** Milliseconds to wait before answering. */
  readonly delayMs: number;
  /** What the request log records as the reply. */
  readonly recorded: FakeModelRequest['reply'];
}

type Offered = RequestView['tools'][number];

const findTool = (view: RequestView, names: readonly string[]): Offered | undefined => {
  for (const name of names) {
    const hit = view.tools.find((t) => t.name === name);
    if (hit !== undefined) return hit;
  }
  return undefined;
};

const call = (tool: Offered, input: Record<string, unknown>): PlannedToolCall =>
  tool.namespace === undefined ? { name: tool.name, input } : { name: tool.name, namespace: tool.namespace, input };

// Each CLI names its shell tool differently and shapes its arguments differently (Codex's unified exec takes `cmd`,
// its older `shell` an argv, Claude Code's `Bash` and OpenCode's `bash` a string plus a description, Gemini CLI's
// `run_shell_command` a string alone).
const shellCall = (view: RequestView, command: string): PlannedToolCall | undefined => {
  const tool = findTool(view, ['exec_command', 'shell_command', 'shell', 'Bash', 'bash', 'run_shell_command']);
  if (tool === undefined) return undefined;
  switch (tool.name) {
    case 'exec_command':
      return call(tool, { cmd: command });
    case 'run_shell_command':
      return call(tool, { command });
    case 'shell':
      return call(tool, { command: ['bash', '-lc', command] });
    default:
      return call(tool, { command, description: 'Run a command' });
  }
};

const spawnCall = (view: RequestView, prompt: string): PlannedToolCall | undefined => {
  const tool = findTool(view, ['spawn_agent', 'task', 'Task', 'Agent']);
  if (tool === undefined) return undefined;
  if (tool.name === 'spawn_agent') return call(tool, { message: prompt });
  // Claude Code 2.1's Agent tool: the type is optional, and a background agent would end the parent's turn first.
  if (tool.name === 'Agent') return call(tool, { description: 'Sub-agent task', prompt, run_in_background: false });
  const type = tool.name === 'task' ? 'general' : 'general-purpose';
  return call(tool, { description: 'Sub-agent task', prompt, subagent_type: type });
};

const toReply = (turn: FakeModelTurn, view: RequestView): PlannedReply | undefined => {
  switch (turn.kind) {
    case 'text':
      return { kind: 'text', text: turn.text };
    case 'shell': {
      const c = shellCall(view, turn.command);
      return c === undefined ? undefined : { kind: 'tool', call: c };
    }
    case 'spawn': {
      const c = spawnCall(view, turn.prompt);
      return c === undefined ? undefined : { kind: 'tool', call: c };
    }
    case 'tool': {
      const tool = view.tools.find((t) => t.name === turn.name);
      return tool === undefined ? undefined : { kind: 'tool', call: call(tool, { ...turn.input }) };
    }
    default: {
      const never: never = turn;
      return never;
    }
  }
};

/** Picks the answer to one model request: the reply to a tool result, a matching turn, the next unused turn, or the default. */
export function planReply(view: RequestView, state: ScriptState, texts: { defaultText: string; afterToolText: string }): ReplyPlan {
  if (view.afterTool) return { reply: { kind: 'text', text: texts.afterToolText }, delayMs: 0, recorded: 'after-tool' };
  // A turn whose tool the request does not offer (a title or summary request, say) is skipped, not consumed.
  for (const turn of state.script) {
    if (turn.when === undefined || !view.userText.includes(turn.when)) continue;
    const reply = toReply(turn, view);
    if (reply !== undefined) return { reply, delayMs: turn.delayMs ?? 0, recorded: turn.kind };
  }
  for (const [i, turn] of state.script.entries()) {
    if (turn.when !== undefined || state.used.has(i)) continue;
    const reply = toReply(turn, view);
    if (reply === undefined) continue;
    state.used.add(i);
    return { reply, delayMs: turn.delayMs ?? 0, recorded: turn.kind };
  }
  return { reply: { kind: 'text', text: texts.defaultText }, delayMs: 0, recorded: 'default' };
}

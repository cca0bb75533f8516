import type { z } from 'zod';
import { lazySchema, type Zod } from '../lazy-zod.js';

// herdr's answers as its protocol schema (protocol 20, `success_response`) describes them. Objects stay loose: fields of
// newer herdr versions are kept as they came. An optional field may be absent or (the schema allows it) null; a null is
// dropped, so a parsed value never carries a null where its type says the field is absent.

type Json = Record<string, unknown>;

function dropNulls(value: unknown, keys: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Json = { ...(value as Json) };
  for (const k of keys) if (out[k] === null) delete out[k];
  return out;
}

// Built on first use (zod loads then), once, all together: the schemas refer to each other.
function build(z: Zod) {
  /** A loose object of `shape` whose optional fields may also be null (dropped before validation). */
  function herdrObject<S extends z.ZodRawShape>(shape: S) {
    const optional = Object.keys(shape).filter((k) => (shape[k] as z.ZodType).safeParse(undefined).success);
    return z.preprocess((v) => dropNulls(v, optional), z.looseObject(shape));
  }

  const uint = z.int().min(0);
  const text = z.string();
  const labels = z.record(z.string(), z.string());

  const agentStatus = z.enum(['idle', 'working', 'blocked', 'done', 'unknown']);

  const agentSession = herdrObject({ source: text, agent: text, kind: z.enum(['id', 'path']), value: text });

  const paneOptional = {
    cwd: text.optional(),
    foreground_cwd: text.optional(),
    agent: text.optional(),
    title: text.optional(),
    display_agent: text.optional(),
    terminal_title: text.optional(),
    terminal_title_stripped: text.optional(),
    state_labels: labels.optional(),
    tokens: labels.optional(),
    agent_session: agentSession.optional(),
  };

  /** herdr's AgentInfo; `state_change_seq` is 0 when absent (the protocol's default). */
  const agentInfoSchema = herdrObject({
    terminal_id: text,
    agent_status: agentStatus,
    workspace_id: text,
    tab_id: text,
    pane_id: text,
    focused: z.boolean(),
    state_change_seq: uint.default(0),
    revision: uint,
    name: text.optional(),
    launch_pending: z.boolean().optional(),
    interactive_ready: z.boolean().optional(),
    screen_detection_skipped: z.boolean().optional(),
    ...paneOptional,
  });

  /** herdr's PaneInfo. */
  const paneInfoSchema = herdrObject({
    pane_id: text,
    terminal_id: text,
    workspace_id: text,
    tab_id: text,
    focused: z.boolean(),
    agent_status: agentStatus,
    revision: uint,
    label: text.optional(),
    scroll: z.looseObject({}).optional(),
    ...paneOptional,
  });

  /** herdr's WorkspaceInfo. */
  const workspaceInfoSchema = herdrObject({
    workspace_id: text,
    number: uint,
    label: text,
    focused: z.boolean(),
    pane_count: uint,
    tab_count: uint,
    active_tab_id: text,
    agent_status: agentStatus,
    tokens: labels.optional(),
    worktree: z.looseObject({}).optional(),
  });

  /** herdr's TabInfo. */
  const tabInfoSchema = herdrObject({
    tab_id: text,
    workspace_id: text,
    number: uint,
    label: text,
    focused: z.boolean(),
    pane_count: uint,
    agent_status: agentStatus,
  });

  const foregroundProcess = herdrObject({
    pid: uint,
    name: text,
    argv0: text.optional(),
    argv: z.array(text).optional(),
    cmdline: text.optional(),
    cwd: text.optional(),
  });

  /** herdr's `pane process-info` answer. */
  const paneProcessInfoSchema = herdrObject({
    pane_id: text,
    shell_pid: uint.optional(),
    foreground_process_group_id: uint.optional(),
    tty: text.optional(),
    foreground_processes: z.array(foregroundProcess).optional(),
  });

  /** `herdr status server --json` (a bare object). */
  const serverStatusSchema = z.looseObject({
    status: z.enum(['running', 'not_running']),
    running: z.boolean(),
    version: text.nullable().optional(),
    protocol: z.int().nullable().optional(),
  });

  /** The argv of `agent start`'s answer. */
  const argvSchema = z.array(text);
  return { agentInfoSchema, paneInfoSchema, workspaceInfoSchema, tabInfoSchema, paneProcessInfoSchema, serverStatusSchema, argvSchema };
}

let built: ReturnType<typeof build> | undefined;
const schemas = (z: Zod): ReturnType<typeof build> => (built ??= build(z));

/** herdr's AgentInfo; `state_change_seq` is 0 when absent (the protocol's default). */
export const agentInfoSchema = lazySchema((z) => schemas(z).agentInfoSchema);

/** herdr's PaneInfo. */
export const paneInfoSchema = lazySchema((z) => schemas(z).paneInfoSchema);

/** herdr's WorkspaceInfo. */
export const workspaceInfoSchema = lazySchema((z) => schemas(z).workspaceInfoSchema);

/** herdr's TabInfo. */
export const tabInfoSchema = lazySchema((z) => schemas(z).tabInfoSchema);

/** herdr's `pane process-info` answer. */
export const paneProcessInfoSchema = lazySchema((z) => schemas(z).paneProcessInfoSchema);

/** `herdr status server --json` (a bare object). */
export const serverStatusSchema = lazySchema((z) => schemas(z).serverStatusSchema);

/** The argv of `agent start`'s answer. */
export const argvSchema = lazySchema((z) => schemas(z).argvSchema);

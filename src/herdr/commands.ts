import { MamError } from '../errors.js';
import type {
  HerdrAgentInfo,
  HerdrAgentStarted,
  HerdrAgentStatus,
  HerdrCallOptions,
  HerdrPaneInfo,
  HerdrPaneProcessInfo,
  HerdrPort,
  HerdrReadSource,
  HerdrServerStatus,
  HerdrWorkspaceCreated,
  HerdrWorkspaceInfo,
} from '../ports/herdr.js';
import { jsonAnswer, okAnswer, pickObject, pickObjects, silentAnswer, statusAnswer, textAnswer, type HerdrAnswerParser } from './output.js';
import { agentInfoSchema, argvSchema, paneInfoSchema, paneProcessInfoSchema, tabInfoSchema, workspaceInfoSchema } from './schemas.js';

/**
 * The name of a {@link HerdrPort} operation, as recorded by fakes and passed to runners.
 * @public
 */
export type HerdrOp = keyof HerdrPort;

/**
 * One herdr invocation: its argv (without the binary) and how to read its answer.
 * @public
 */
export interface HerdrCommand<T> {
  argv: string[];
  parse: HerdrAnswerParser<T>;
}

type ReadArgs = { source?: HerdrReadSource; lines?: number };

/**
 * `--session NAME` first (herdr strips it anywhere before `--`), then the command.
 * @public
 */
export function withSession(argv: readonly string[], opts?: HerdrCallOptions): string[] {
  return opts?.session === undefined ? [...argv] : ['--session', opts.session, ...argv];
}

function readFlags(args: ReadArgs | undefined): string[] {
  const out: string[] = [];
  if (args?.source !== undefined) out.push('--source', args.source);
  if (args?.lines !== undefined) out.push('--lines', String(args.lines));
  return out;
}

function untilFlags(until: readonly HerdrAgentStatus[] | undefined): string[] {
  return (until ?? []).flatMap((s) => ['--until', s]);
}

function badArgument(op: HerdrOp, message: string, data: Record<string, unknown>): MamError {
  return new MamError('HERDR_INVALID_ARGUMENT', `${op}: ${message}`, { op, ...data });
}

const agentsOf = pickObjects<HerdrAgentInfo>('agents', agentInfoSchema);
const agentOf = pickObject<HerdrAgentInfo>('agent', agentInfoSchema);

/**
 * The argv and answer reader of every {@link HerdrPort} operation, exactly as herdr's CLI takes them.
 * @public
 */
export const herdrCommands = {
  serverStatus: (): HerdrCommand<HerdrServerStatus> => ({ argv: ['status', 'server', '--json'], parse: statusAnswer() }),
  workspaceList: (): HerdrCommand<HerdrWorkspaceInfo[]> => ({
    argv: ['workspace', 'list'],
    parse: jsonAnswer('workspace_list', pickObjects<HerdrWorkspaceInfo>('workspaces', workspaceInfoSchema)),
  }),
  workspaceCreate: (args: { cwd?: string; label?: string; env?: Record<string, string> }): HerdrCommand<HerdrWorkspaceCreated> => {
    const argv = ['workspace', 'create'];
    if (args.cwd !== undefined) argv.push('--cwd', args.cwd);
    if (args.label !== undefined) argv.push('--label', args.label);
    for (const [k, v] of Object.entries(args.env ?? {})) argv.push('--env', `${k}=${v}`);
    return {
      argv,
      parse: jsonAnswer('workspace_created', (r) => {
        const workspace = pickObject<HerdrWorkspaceInfo>('workspace', workspaceInfoSchema)(r);
        const tab = pickObject<Record<string, unknown>>('tab', tabInfoSchema)(r);
        const rootPane = pickObject<HerdrPaneInfo>('root_pane', paneInfoSchema)(r);
        return workspace !== undefined && tab !== undefined && rootPane !== undefined ? ({ workspace, tab, root_pane: rootPane } satisfies HerdrWorkspaceCreated) : undefined;
      }),
    };
  },
  workspaceClose: (id: string): HerdrCommand<void> => ({ argv: ['workspace', 'close', id], parse: okAnswer() }),
  paneList: (args?: { workspace?: string }): HerdrCommand<HerdrPaneInfo[]> => ({
    argv: args?.workspace === undefined ? ['pane', 'list'] : ['pane', 'list', '--workspace', args.workspace],
    parse: jsonAnswer('pane_list', pickObjects<HerdrPaneInfo>('panes', paneInfoSchema)),
  }),
  paneGet: (id: string): HerdrCommand<HerdrPaneInfo> => ({ argv: ['pane', 'get', id], parse: jsonAnswer('pane_info', pickObject<HerdrPaneInfo>('pane', paneInfoSchema)) }),
  paneClose: (id: string): HerdrCommand<void> => ({ argv: ['pane', 'close', id], parse: okAnswer() }),
  // process-info takes the pane only as `--pane ID`: a positional is a usage error.
  paneProcessInfo: (id: string): HerdrCommand<HerdrPaneProcessInfo> => ({
    argv: ['pane', 'process-info', '--pane', id],
    parse: jsonAnswer('pane_process_info', pickObject<HerdrPaneProcessInfo>('process_info', paneProcessInfoSchema)),
  }),
  paneRead: (id: string, args?: ReadArgs): HerdrCommand<string> => ({ argv: ['pane', 'read', id, ...readFlags(args)], parse: textAnswer() }),
  paneSendText: (id: string, text: string): HerdrCommand<void> => ({ argv: ['pane', 'send-text', id, text], parse: silentAnswer() }),
  paneSendKeys: (id: string, keys: readonly string[]): HerdrCommand<void> => ({ argv: ['pane', 'send-keys', id, ...keys], parse: silentAnswer() }),
  agentList: (): HerdrCommand<HerdrAgentInfo[]> => ({ argv: ['agent', 'list'], parse: jsonAnswer('agent_list', agentsOf) }),
  agentGet: (target: string): HerdrCommand<HerdrAgentInfo> => ({ argv: ['agent', 'get', target], parse: jsonAnswer('agent_info', agentOf) }),
  agentRead: (target: string, args?: ReadArgs): HerdrCommand<string> => ({ argv: ['agent', 'read', target, ...readFlags(args)], parse: textAnswer() }),
  agentSendKeys: (target: string, keys: readonly string[]): HerdrCommand<void> => ({ argv: ['agent', 'send-keys', target, ...keys], parse: okAnswer() }),
  // The text is ONE argv element right after the target (herdr takes it literally even when it looks like a flag).
  agentPrompt: (target: string, text: string, args?: { wait?: boolean; until?: readonly HerdrAgentStatus[]; timeoutMs?: number }): HerdrCommand<HerdrAgentInfo> => {
    const argv = ['agent', 'prompt', target, text];
    if (args?.wait === true) argv.push('--wait');
    argv.push(...untilFlags(args?.until));
    if (args?.timeoutMs !== undefined) argv.push('--timeout', String(args.timeoutMs));
    return { argv, parse: jsonAnswer('agent_prompted', agentOf) };
  },
  agentWait: (target: string, args: { until: readonly HerdrAgentStatus[]; timeoutMs: number }): HerdrCommand<HerdrAgentInfo> => {
    // herdr would wait forever without --timeout and fall back to idle/done/blocked without --until: both are caller bugs.
    if (!Number.isSafeInteger(args.timeoutMs) || args.timeoutMs <= 0) {
      throw badArgument('agentWait', `timeoutMs must be a positive integer of milliseconds, got ${String(args.timeoutMs)}`, { timeoutMs: args.timeoutMs });
    }
    if (args.until.length === 0) throw badArgument('agentWait', 'until must name at least one status', {});
    return {
      argv: ['agent', 'wait', target, ...untilFlags(args.until), '--timeout', String(args.timeoutMs)],
      parse: jsonAnswer('agent_info', agentOf),
    };
  },
  agentStart: (name: string, args: { kind: string; pane: string; timeoutMs?: number; argv?: readonly string[] }): HerdrCommand<HerdrAgentStarted> => {
    const argv = ['agent', 'start', name, '--kind', args.kind, '--pane', args.pane];
    if (args.timeoutMs !== undefined) argv.push('--timeout', String(args.timeoutMs));
    if (args.argv !== undefined && args.argv.length > 0) argv.push('--', ...args.argv);
    return {
      argv,
      parse: jsonAnswer('agent_started', (r) => {
        const agent = agentOf(r);
        const startedArgv = argvSchema.safeParse(r['argv']);
        return agent !== undefined && startedArgv.success ? { agent, argv: startedArgv.data } : undefined;
      }),
    };
  },
};

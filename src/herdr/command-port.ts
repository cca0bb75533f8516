import type {
  HerdrAgentInfo,
  HerdrAgentStarted,
  HerdrAgentStatus,
  HerdrCallOptions,
  HerdrPaneInfo,
  HerdrPaneProcessInfo,
  HerdrPort,
  HerdrPresence,
  HerdrReadSource,
  HerdrResult,
  HerdrServerStatus,
  HerdrWorkspaceCreated,
  HerdrWorkspaceInfo,
} from '../ports/herdr.js';
import { herdrCommands as cmd, withSession, type HerdrCommand, type HerdrOp } from './commands.js';
import type { HerdrRawOutput } from './output.js';
import { describeError } from '../errors.js';

/**
 * What a runner is told about the call it runs.
 * @public
 */
export interface HerdrRunContext {
  /** The port operation the argv belongs to. */
  op: HerdrOp;
  /** Give up after this many ms (answer `timed_out`). */
  deadlineMs?: number;
}

/**
 * Runs one herdr argv (without the binary) and reports what it printed and how it exited.
 * @public
 */
export type HerdrRunner = (argv: readonly string[], ctx: HerdrRunContext) => Promise<HerdrRawOutput>;

/**
 * Presence of `name` from an `agent list` answer: absent only when the list parsed without it or herdr said `server_not_running`.
 * @public
 */
export function herdrPresenceOf(list: HerdrResult<readonly HerdrAgentInfo[]>, name: string): HerdrPresence {
  switch (list.kind) {
    case 'ok':
      return list.value.some((a) => a.name === name) ? 'present' : 'absent';
    case 'error':
      return list.code === 'server_not_running' ? 'server_not_running' : 'unknown';
    case 'transport_error':
      return 'unknown';
    default: {
      const never: never = list;
      return never;
    }
  }
}

/**
 * A {@link HerdrPort} over any runner of herdr's CLI argv: builds the exact argv, reads the exact output.
 * @public
 */
export class HerdrCommandPort implements HerdrPort {
  readonly #run: HerdrRunner;

  /** Wraps `run`, which executes one argv (the binary is the runner's business). */
  constructor(run: HerdrRunner) {
    this.#run = run;
  }

  // Runs every operation: a runner that throws is a transport error, never an exception for the caller.
  async #exec<T>(op: HerdrOp, command: HerdrCommand<T>, opts: HerdrCallOptions | undefined): Promise<HerdrResult<T>> {
    const ctx: HerdrRunContext = opts?.deadlineMs === undefined ? { op } : { op, deadlineMs: opts.deadlineMs };
    let raw: HerdrRawOutput;
    // No time left means herdr is not asked at all (a caller out of budget gets `unknown`, not a late answer).
    if (opts?.deadlineMs !== undefined && !(opts.deadlineMs > 0)) return command.parse({ kind: 'timed_out', afterMs: 0, stdout: '', stderr: '' });
    try {
      raw = await this.#run(withSession(command.argv, opts), ctx);
    } catch (err) {
      raw = { kind: 'spawn_failed', message: describeError(err) };
    }
    return command.parse(raw);
  }

  /** {@inheritDoc HerdrPort.serverStatus} */
  serverStatus(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrServerStatus>> {
    return this.#exec('serverStatus', cmd.serverStatus(), opts);
  }
  /** {@inheritDoc HerdrPort.workspaceList} */
  workspaceList(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrWorkspaceInfo[]>> {
    return this.#exec('workspaceList', cmd.workspaceList(), opts);
  }
  /** {@inheritDoc HerdrPort.workspaceCreate} */
  workspaceCreate(args: { cwd?: string; label?: string; env?: Record<string, string> }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrWorkspaceCreated>> {
    return this.#exec('workspaceCreate', cmd.workspaceCreate(args), opts);
  }
  /** {@inheritDoc HerdrPort.workspaceClose} */
  workspaceClose(workspaceId: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>> {
    return this.#exec('workspaceClose', cmd.workspaceClose(workspaceId), opts);
  }
  /** {@inheritDoc HerdrPort.paneList} */
  paneList(args?: { workspace?: string }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneInfo[]>> {
    return this.#exec('paneList', cmd.paneList(args), opts);
  }
  /** {@inheritDoc HerdrPort.paneGet} */
  paneGet(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneInfo>> {
    return this.#exec('paneGet', cmd.paneGet(paneId), opts);
  }
  /** {@inheritDoc HerdrPort.paneClose} */
  paneClose(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>> {
    return this.#exec('paneClose', cmd.paneClose(paneId), opts);
  }
  /** {@inheritDoc HerdrPort.paneProcessInfo} */
  paneProcessInfo(paneId: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrPaneProcessInfo>> {
    return this.#exec('paneProcessInfo', cmd.paneProcessInfo(paneId), opts);
  }
  /** {@inheritDoc HerdrPort.paneRead} */
  paneRead(paneId: string, args?: { source?: HerdrReadSource; lines?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<string>> {
    return this.#exec('paneRead', cmd.paneRead(paneId, args), opts);
  }
  /** {@inheritDoc HerdrPort.paneSendText} */
  paneSendText(paneId: string, text: string, opts?: HerdrCallOptions): Promise<HerdrResult<void>> {
    return this.#exec('paneSendText', cmd.paneSendText(paneId, text), opts);
  }
  /** {@inheritDoc HerdrPort.paneSendKeys} */
  paneSendKeys(paneId: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>> {
    return this.#exec('paneSendKeys', cmd.paneSendKeys(paneId, keys), opts);
  }
  /** {@inheritDoc HerdrPort.agentList} */
  agentList(opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo[]>> {
    return this.#exec('agentList', cmd.agentList(), opts);
  }
  /** {@inheritDoc HerdrPort.agentGet} */
  agentGet(target: string, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>> {
    return this.#exec('agentGet', cmd.agentGet(target), opts);
  }
  /** {@inheritDoc HerdrPort.agentRead} */
  agentRead(target: string, args?: { source?: HerdrReadSource; lines?: number }, opts?: HerdrCallOptions): Promise<HerdrResult<string>> {
    return this.#exec('agentRead', cmd.agentRead(target, args), opts);
  }
  /** {@inheritDoc HerdrPort.agentSendKeys} */
  agentSendKeys(target: string, keys: readonly string[], opts?: HerdrCallOptions): Promise<HerdrResult<void>> {
    return this.#exec('agentSendKeys', cmd.agentSendKeys(target, keys), opts);
  }
  /** {@inheritDoc HerdrPort.agentPrompt} */
  agentPrompt(
    target: string,
    text: string,
    args?: { wait?: boolean; until?: readonly HerdrAgentStatus[]; timeoutMs?: number },
    opts?: HerdrCallOptions,
  ): Promise<HerdrResult<HerdrAgentInfo>> {
    return this.#exec('agentPrompt', cmd.agentPrompt(target, text, args), opts);
  }
  /**
   * Waits until the agent's status is one of `until`, or herdr's `timeout` error after `timeoutMs`.
   *
   * @example
   * ```ts
   * const r = await port.agentWait('reviewer', { until: ['idle', 'done'], timeoutMs: 15_000 }, { session: 'work' });
   * if (r.kind === 'error' && r.code === 'timeout') { … }
   * ```
   * Rejects with a MamError `HERDR_INVALID_ARGUMENT` when `timeoutMs` is not a positive integer or `until` is empty.
   */
  async agentWait(target: string, args: { until: readonly HerdrAgentStatus[]; timeoutMs: number }, opts?: HerdrCallOptions): Promise<HerdrResult<HerdrAgentInfo>> {
    return this.#exec('agentWait', cmd.agentWait(target, args), opts);
  }
  /** {@inheritDoc HerdrPort.agentStart} */
  agentStart(
    name: string,
    args: { kind: string; pane: string; timeoutMs?: number; argv?: readonly string[] },
    opts?: HerdrCallOptions,
  ): Promise<HerdrResult<HerdrAgentStarted>> {
    return this.#exec('agentStart', cmd.agentStart(name, args), opts);
  }
  /** {@inheritDoc HerdrPort.agentPresence} */
  async agentPresence(name: string, opts?: HerdrCallOptions): Promise<HerdrPresence> {
    return herdrPresenceOf(await this.#exec('agentPresence', cmd.agentList(), opts), name);
  }
}

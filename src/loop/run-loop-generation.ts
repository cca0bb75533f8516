import type { HerdrAgentInfo, HerdrPaneProcessInfo } from '../ports/herdr.js';
import type { Ports } from '../ports/index.js';
import { isLiveProcess } from '../ports/process-live.js';

/**
 * Where a prompt went: the pane, the agent's process (pid and start), the generation string `<pane>:<pid>:<start>`, the
 * conversation it is attributed to, and herdr's `state_change_seq` just before the prompt.
 * @public
 */
export interface LoopDispatchPoint {
  /** The herdr pane the prompt went to. */
  paneId: string;
  /** The agent process's pid. */
  pid: number;
  /** The agent process's start, epoch ms; null when it cannot be told. */
  startedAtMs: number | null;
  /** `<pane>:<pid>:<start ISO>` (`unknown` for an unknown start). */
  generation: string;
  /** herdr's reported `agent_session` id, else `terminal:<terminal_id>` (the terminal stands in for the session). */
  uuid: string;
  /** herdr's `state_change_seq` just before the prompt. */
  seq: number;
}

function agentProcess(info: HerdrPaneProcessInfo, kind: string | undefined): number | undefined {
  const fg = info.foreground_processes ?? [];
  const named = kind === undefined ? undefined : fg.find((p) => p.name === kind || p.argv0?.split('/').pop() === kind);
  const pid = (named ?? fg[0])?.pid;
  return typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function generationOf(paneId: string, pid: number, startedAtMs: number | null): string {
  return `${paneId}:${pid}:${startedAtMs === null ? 'unknown' : new Date(startedAtMs).toISOString()}`;
}

/**
 * The dispatch point of an agent snapshot: its pane's agent process from `pane process-info` (else `fallbackPid`), with
 * the process's start; null when no live process can be told.
 * @public
 */
export async function dispatchPointOf(ports: Ports, server: string, snap: HerdrAgentInfo, fallbackPid: number | null): Promise<LoopDispatchPoint | null> {
  const info = await ports.herdr.paneProcessInfo(snap.pane_id, { session: server }).catch(() => null);
  const pid = (info?.kind === 'ok' ? agentProcess(info.value, snap.agent) : undefined) ?? fallbackPid ?? undefined;
  if (pid === undefined) return null;
  const proc = await ports.proc.lookup(pid).catch(() => null);
  if (proc === null || !isLiveProcess(proc)) return null;
  const s = snap.agent_session;
  const uuid = s?.kind === 'id' && s.value !== '' ? s.value : `terminal:${snap.terminal_id}`;
  return { paneId: snap.pane_id, pid, startedAtMs: proc.startedAtMs, generation: generationOf(snap.pane_id, pid, proc.startedAtMs), uuid, seq: snap.state_change_seq };
}

/**
 * The generation a snapshot shows now: the dispatched process while it lives with the same start (in the snapshot's pane),
 * else whatever process the pane runs now (or `<pane>:gone`); undefined when the process table cannot be asked.
 * @public
 */
export async function observedGeneration(ports: Ports, server: string, point: LoopDispatchPoint, snap: HerdrAgentInfo): Promise<string | undefined> {
  let proc;
  try {
    proc = await ports.proc.lookup(point.pid);
  } catch {
    return undefined;
  }
  if (proc !== null && isLiveProcess(proc) && (point.startedAtMs === null || proc.startedAtMs === null || Math.abs(proc.startedAtMs - point.startedAtMs) < 1000)) {
    return generationOf(snap.pane_id, point.pid, point.startedAtMs);
  }
  const now = await dispatchPointOf(ports, server, snap, null);
  return now === null ? `${snap.pane_id}:gone` : now.generation;
}

/**
 * The conversation a snapshot shows, in the dispatch's terms: the terminal when the dispatch used it, else herdr's reported
 * id (undefined when herdr reports none).
 * @public
 */
export function observedUuid(point: LoopDispatchPoint, snap: HerdrAgentInfo): string | undefined {
  if (point.uuid.startsWith('terminal:')) return `terminal:${snap.terminal_id}`;
  const s = snap.agent_session;
  return s?.kind === 'id' && s.value !== '' ? s.value : undefined;
}

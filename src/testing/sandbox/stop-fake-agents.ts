import { join } from 'node:path';
import type { Clock } from '../../ports/clock.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessPort } from '../../ports/process.js';
import { readFakeHerdrState } from '../herdr/fake-herdr-state-file.js';
import { isLiveProcess } from '../../ports/process-live.js';

/**
 * Where {@link stopFakeAgents} looks for fake agent processes, and with what.
 * @public
 */
export interface StopFakeAgentsOptions {
  /** Reads the run dir and `/proc/<pid>/stat`, and removes the records of stopped agents. */
  fs: FileSystemPort;
  /** Tells whether a recorded agent is still alive where `/proc` cannot. */
  proc: ProcessPort;
  /** Times the SIGTERM grace. */
  clock: Clock;
  /** The fake agents' run dir (`<pid>.json` records). */
  runDir: string;
  /** A fake herdr state file whose spawned agents are stopped too. */
  herdrStatePath?: string;
  /** How long SIGTERM gets before SIGKILL (ms, default 3000). */
  graceMs?: number;
}

/**
 * What {@link stopFakeAgents} did: the pids that exited on SIGTERM, those it had to SIGKILL, and any still alive after that.
 * @public
 */
export interface FakeAgentsStopResult {
  /** Pids that exited after SIGTERM. */
  terminated: number[];
  /** Pids that had to be sent SIGKILL. */
  killed: number[];
  /** Pids still alive after SIGKILL. */
  survivors: number[];
}

interface Target {
  pid: number;
  startTicks: number | null;
}

function ticks(v: unknown): number | null {
  const n = typeof v === 'string' && /^[0-9]+$/.test(v) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}

// Alive and still the process that was recorded: a zombie (an orphan nobody reaps) or a reused pid is not.
async function isAlive(o: StopFakeAgentsOptions, t: Target): Promise<boolean> {
  try {
    const stat = await o.fs.readText(`/proc/${t.pid}/stat`);
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (rest[0] === 'Z' || rest[0] === 'X') return false;
    return t.startTicks === null || Number(rest[19]) === t.startTicks;
  } catch {
    // No such /proc entry: gone, or a system without /proc.
  }
  const p = await o.proc.lookup(t.pid).catch(() => null);
  if (p === null || !isLiveProcess(p)) return false;
  return t.startTicks === null || p.startTicks === undefined || p.startTicks === t.startTicks;
}

async function targets(o: StopFakeAgentsOptions): Promise<Map<number, Target>> {
  const found = new Map<number, Target>();
  for (const e of await o.fs.readdir(o.runDir).catch(() => [])) {
    if (!/^[1-9][0-9]*\.json$/.test(e.name)) continue;
    try {
      const rec = JSON.parse(await o.fs.readText(join(o.runDir, e.name))) as { pid?: unknown; startTicks?: unknown };
      if (typeof rec.pid === 'number' && Number.isSafeInteger(rec.pid) && rec.pid > 0) found.set(rec.pid, { pid: rec.pid, startTicks: ticks(rec.startTicks) });
    } catch {
      // A record half-written or removed meanwhile.
    }
  }
  if (o.herdrStatePath !== undefined) {
    const state = await readFakeHerdrState(o.herdrStatePath).catch(() => null);
    for (const sess of Object.values(state?.sessions ?? {})) {
      for (const ws of sess.workspaces) for (const pane of ws.panes) {
        const p = pane.agent?.process;
        if (p !== undefined && !found.has(p.pid)) found.set(p.pid, { pid: p.pid, startTicks: p.startTicks });
      }
    }
  }
  return found;
}

function signal(pids: readonly number[], sig: 'SIGTERM' | 'SIGKILL'): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
    } catch {
      // Gone meanwhile.
    }
  }
}

async function waitGone(o: StopFakeAgentsOptions, list: readonly Target[], ms: number): Promise<Target[]> {
  const deadline = o.clock.monotonic() + ms;
  let alive = [...list];
  for (;;) {
    alive = (await Promise.all(alive.map(async (t) => ((await isAlive(o, t)) ? t : null)))).filter((t): t is Target => t !== null);
    if (alive.length === 0 || o.clock.monotonic() >= deadline) return alive;
    await o.clock.sleep(25);
  }
}

/**
 * Ends every fake agent process a run dir records (and every agent process a fake herdr state file tracks): SIGTERM (a clean
 * exit), SIGKILL after `graceMs` for what is left, then drops the records of the dead. Only a process that is still the one
 * recorded (same start ticks) is signalled.
 * @example
 * ```ts
 * const r = await stopFakeAgents({ ...nodePorts(), runDir: fakeAgentRunDir(binDir) });
 * if (r.survivors.length > 0) throw new Error(`still alive: ${r.survivors.join(', ')}`);
 * ```
 * @public
 */
export async function stopFakeAgents(o: StopFakeAgentsOptions): Promise<FakeAgentsStopResult> {
  const all = [...(await targets(o)).values()];
  const live = (await Promise.all(all.map(async (t) => ((await isAlive(o, t)) ? t : null)))).filter((t): t is Target => t !== null);
  signal(live.map((t) => t.pid), 'SIGTERM');
  const stubborn = await waitGone(o, live, o.graceMs ?? 3000);
  signal(stubborn.map((t) => t.pid), 'SIGKILL');
  const survivors = await waitGone(o, stubborn, 2000);
  for (const t of all) {
    if (survivors.some((s) => s.pid === t.pid)) continue;
    await o.fs.unlink(join(o.runDir, `${t.pid}.json`)).catch(() => undefined);
  }
  const killed = stubborn.filter((t) => !survivors.includes(t)).map((t) => t.pid);
  return { terminated: live.filter((t) => !stubborn.includes(t)).map((t) => t.pid), killed, survivors: survivors.map((t) => t.pid) };
}

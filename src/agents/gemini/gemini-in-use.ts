import type { ProcessInfo, ProcessPort } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';
import { agentCliName } from '../../process/agent-cli-name.js';
import { helperChain } from '../../process/helper-chain.js';
import { processesNamingId } from '../common/in-use.js';
import type { InUseHolder } from '../types.js';

/**
 * A live `gemini` process that can be using a project: its cwd is one of the project directories, or its cwd cannot be
 * told (then it may be using any project).
 * @public
 */
export interface GeminiInProject {
  /** The process. */
  proc: ProcessInfo;
  /** Its working directory, or null when it cannot be told. */
  cwd: string | null;
}

/**
 * The live `gemini` processes of a snapshot whose working directory is one of `dirs` (realpaths) or cannot be told: a
 * Gemini CLI TUI can switch to any session of the project it was started in, and nothing on disk marks a live session.
 * An empty `dirs` (a project whose directory is unknown) takes every live gemini process. Never throws.
 * @public
 */
export async function geminiProcessesIn(proc: ProcessPort, snapshot: readonly ProcessInfo[], dirs: readonly string[]): Promise<GeminiInProject[]> {
  const out: GeminiInProject[] = [];
  for (const p of snapshot) {
    if (!isLiveProcess(p) || agentCliName(p) !== 'gemini') continue;
    const cwd = (await proc.cwdOf?.(p.pid).catch(() => null)) ?? null;
    if (cwd === null || dirs.length === 0 || dirs.includes(cwd)) out.push({ proc: p, cwd });
  }
  return out;
}

/**
 * Gemini's own evidence that a live process uses a conversation whose project directories are `dirs`: a `gemini` process
 * working in one of them (or whose cwd cannot be told), and — Gemini gives its tool shells `GEMINI_CLI=1`, not the session
 * id — the caller's nearest `gemini` ancestor when the caller's environment has `GEMINI_CLI=1` and that ancestor works
 * there. Processes whose command line names the id are the common check's. Never throws.
 * @public
 */
export async function geminiInUse(proc: ProcessPort, snapshot: readonly ProcessInfo[], id: string, dirs: readonly string[]): Promise<InUseHolder[]> {
  try {
    const { chain, agentAncestor } = helperChain(snapshot, proc.selfPid());
    const own = new Set(chain);
    const inShell = proc.env()['GEMINI_CLI']?.trim() === '1';
    const ancestor = inShell && agentAncestor !== null && agentCliName(agentAncestor) === 'gemini' ? agentAncestor.pid : null;
    // The common check reports these (in any letter case, as it compares a uuid), and each process once.
    const naming = new Set(processesNamingId(snapshot, id, own).map((p) => p.pid));
    const out: InUseHolder[] = [];
    for (const { proc: p, cwd } of await geminiProcessesIn(proc, snapshot, dirs)) {
      if (own.has(p.pid) || naming.has(p.pid)) continue;
      const where = cwd === null ? 'its cwd cannot be told' : `works in ${cwd}`;
      if (p.pid === ancestor) out.push({ pid: p.pid, command: p.command, signal: 'session-env', detail: `GEMINI_CLI=1: the caller's gemini session (${where})` });
      else out.push({ pid: p.pid, command: p.command, signal: 'open-file', detail: `a gemini process that ${where}` });
    }
    return out;
  } catch {
    return [];
  }
}

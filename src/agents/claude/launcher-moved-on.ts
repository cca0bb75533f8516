import type { ProcessInfo } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';
import { agentCliName } from '../../process/agent-cli-name.js';

/**
 * Whether a process whose command line names `id` only launched Claude processes that are all on other conversations now:
 * not itself a Claude process, with at least one live Claude descendant, and every such descendant's pid file naming
 * another session (a tmux server started as `tmux new-session claude --resume <id>` keeps that command line after the TUI
 * ran `/clear`). A descendant whose current session cannot be read keeps the holder counted. Never rejects.
 * @public
 */
export async function launcherMovedOn(
  holder: ProcessInfo,
  snapshot: readonly ProcessInfo[],
  id: string,
  currentOf: (pid: number) => Promise<string | null>,
): Promise<boolean> {
  if (agentCliName(holder) === 'claude') return false;
  const below = new Set([holder.pid]);
  const kids: ProcessInfo[] = [];
  // The snapshot in any order: grow the subtree until no process joins it.
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of snapshot) {
      if (below.has(p.pid) || !below.has(p.ppid)) continue;
      below.add(p.pid);
      grew = true;
      if (isLiveProcess(p) && agentCliName(p) === 'claude') kids.push(p);
    }
  }
  if (kids.length === 0) return false;
  for (const k of kids) {
    const on = await currentOf(k.pid).catch(() => null);
    if (on === null || on === id) return false;
  }
  return true;
}

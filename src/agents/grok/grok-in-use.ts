import type { FileSystemPort } from '../../ports/fs.js';
import type { ProcessInfo } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';
import { agentCliName } from '../../process/agent-cli-name.js';
import { helperChain } from '../../process/helper-chain.js';
import { processesNamingId } from '../common/in-use.js';
import type { InUseHolder } from '../types.js';
import { grokActiveSessionsPath, grokEntryLive, readGrokActiveSessions } from './grok-active-sessions.js';

/**
 * Grok's own evidence that a live process uses one of `ids` (the conversation, its subagent descendants, and for a child
 * its parents): a live `active_sessions.json` entry naming one (pid alive, not reused); the caller's nearest `grok`
 * ancestor when an entry with its pid names one (grok's tool shells get `GROK_AGENT=1`, not the session id); a command
 * line naming one of the other ids (the id itself is the common check's). Never throws.
 * @public
 */
export async function grokInUse(
  fs: FileSystemPort,
  root: string | null,
  ids: readonly string[],
  snapshot: readonly ProcessInfo[],
  selfPid: number,
): Promise<InUseHolder[]> {
  const out: InUseHolder[] = [];
  const byPid = new Map(snapshot.map((p) => [p.pid, p] as const));
  const { chain, agentAncestor } = helperChain(snapshot, selfPid);
  const own = new Set(chain);
  const wanted = new Set(ids);
  if (root !== null) {
    const path = grokActiveSessionsPath(root);
    const grokAncestor = agentAncestor !== null && agentCliName(agentAncestor) === 'grok' ? agentAncestor.pid : null;
    for (const e of await readGrokActiveSessions(fs, root)) {
      if (e.sessionId === null || !wanted.has(e.sessionId)) continue;
      const proc = byPid.get(e.pid);
      if (e.pid === grokAncestor && isLiveProcess(proc)) {
        out.push({ pid: e.pid, command: proc?.command ?? 'grok', signal: 'session-env', detail: `${path} (the caller's grok session)` });
      } else if (!own.has(e.pid) && grokEntryLive(e, proc)) {
        out.push({ pid: e.pid, command: proc?.command ?? 'grok', signal: 'pid-file', detail: path });
      }
    }
  }
  const naming = new Set(ids.slice(1).flatMap((i) => processesNamingId(snapshot, i, own).map((p) => p.pid)));
  for (const p of snapshot) if (naming.has(p.pid)) out.push({ pid: p.pid, command: p.command, signal: 'command-line' });
  return out;
}

import { isUuid } from '../contract/uuid.js';
import type { FileHolder, ProcessInfo, ProcessPort } from '../../ports/process.js';
import { helperChain } from '../../process/helper-chain.js';
import { processesNaming } from '../../process/processes-naming.js';
import { BUILTIN_SESSION_ENV_VARS } from '../../process/session-env-vars.js';
import type { InUseHolder } from '../types.js';
import { sessionVarsNaming } from './session-env.js';
import { isLiveProcess } from '../../ports/process-live.js';

/**
 * What one adapter contributes to the in-use check of one conversation.
 * @public
 */
export interface InUseProbe {
  /** The agent whose conversation is checked. */
  agent: string;
  /** The variables the agent exports to its tool shells naming the conversation (its definition's `sessionEnvVars`). */
  sessionEnvVars: readonly string[];
  /** The canonical (already normalised) id. */
  id: string;
  /** Files whose open holders count: DB + `-wal`/`-shm`/`-journal`, presence or writer locks. */
  heldPaths: readonly string[];
  /** Holders that do not count (e.g. OpenCode's per-user background service on the shared DB). */
  ignoreHolder?: (holder: FileHolder, proc: ProcessInfo | undefined) => boolean;
  /** Further evidence from the same snapshot (Claude's `sessions/<pid>.json`). */
  extra?: (snapshot: readonly ProcessInfo[]) => Promise<InUseHolder[]>;
}

/**
 * The live processes, outside `exclude`, whose command line names the conversation `id`: the one rule the in-use check
 * and each agent's own evidence share (an agent that reports other processes skips these, which this check reports). A
 * uuid is compared in any letter case — it is one id however a person or a script spells it, and no other id shape is a
 * uuid (OpenCode's `ses_…` never is); any other id exactly.
 * @public
 */
export function processesNamingId(snapshot: readonly ProcessInfo[], id: string, exclude: ReadonlySet<number>): ProcessInfo[] {
  return processesNaming(snapshot.filter(isLiveProcess), [id], exclude, { caseInsensitive: isUuid(id) });
}

/**
 * Every live use of a conversation, from one process snapshot and at most one lsof call: command lines outside the caller's
 * helper chain (the nearest agent CLI ancestor does count), the caller's session variables, open-file holders, and the
 * adapter's extra evidence.
 * @public
 */
export async function findInUseHolders(proc: ProcessPort, probe: InUseProbe): Promise<InUseHolder[]> {
  const snapshot = await proc.snapshot();
  const selfPid = proc.selfPid();
  const own = new Set(helperChain(snapshot, selfPid).chain);
  const found: InUseHolder[] = processesNamingId(snapshot, probe.id, own).map((p) => ({ pid: p.pid, command: p.command, signal: 'command-line' }));
  // The agent's own variables, then every built-in agent's: the caller runs inside the id's session either way.
  const names = [...new Set([...probe.sessionEnvVars, ...BUILTIN_SESSION_ENV_VARS])];
  for (const name of sessionVarsNaming(proc.env(), probe.id, isUuid(probe.id), names)) {
    found.push({ pid: selfPid, command: `this process (${name})`, signal: 'session-env', detail: name });
  }
  if (probe.heldPaths.length > 0) {
    const byPid = new Map(snapshot.map((p) => [p.pid, p] as const));
    const held = await proc.holders(probe.heldPaths);
    // A process holding a file below a held directory is reported once, by the file (the more precise evidence).
    const below = (h: FileHolder): boolean => held.some((o) => o.pid === h.pid && o.path.startsWith(h.path.endsWith('/') ? h.path : `${h.path}/`));
    for (const h of held) {
      if (own.has(h.pid) || below(h)) continue;
      if (probe.ignoreHolder?.(h, byPid.get(h.pid)) === true) continue;
      found.push({ pid: h.pid, command: byPid.get(h.pid)?.command ?? h.command, signal: 'open-file', detail: h.path });
    }
  }
  if (probe.extra !== undefined) found.push(...(await probe.extra(snapshot)));
  return found;
}

/**
 * The hint every adapter gives with an in-use refusal: how a person finds the processes naming the id.
 * @public
 */
export function psHint(id: string): string {
  return `ps -axww | grep ${shellQuote(id)}`;
}

/**
 * A word safe to paste into a POSIX shell: plain path characters as they are, anything else single-quoted (a NUL, which
 * no shell word can hold, is dropped).
 * @public
 */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll('\0', '').replaceAll("'", "'\\''")}'`;
}

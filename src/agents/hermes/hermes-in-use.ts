import { isUuid } from '../contract/uuid.js';
import type { ProcessInfo, ProcessPort } from '../../ports/process.js';
import { isLiveProcess } from '../../ports/process-live.js';
import { helperChain } from '../../process/helper-chain.js';
import type { InUseHolder } from '../types.js';
import { processesNamingId } from '../common/in-use.js';
import { sessionVarsNaming } from '../common/session-env.js';

/**
 * What decides whether a Hermes conversation is live: the canonical id asked about, every id of its chain (as stored),
 * and every session id of the store (a `--resume` prefix must be unique among them).
 * @public
 */
export interface HermesInUseProbe {
  /** The canonical id asked about (the generic check already covers it). */
  id: string;
  /** Every id of the conversation's compression chain. */
  chain: readonly string[];
  /** Every session id of the store, for the uniqueness of a prefix. */
  allIds: readonly string[];
  /** The variables Hermes exports to its tool shells (its definition's `sessionEnvVars`). */
  sessionEnvVars: readonly string[];
}

const RESUME_FLAGS = new Set(['--resume', '-r']);
// A prefix `hermes --resume` could resolve: id characters only, at least a date's worth.
const PREFIX = /^[0-9A-Za-z_-]{4,}$/;

function resumeArguments(argv: readonly string[]): string[] {
  const out: string[] = [];
  argv.forEach((arg, i) => {
    if (RESUME_FLAGS.has(arg) && i + 1 < argv.length) out.push(argv[i + 1] as string);
    else if (arg.startsWith('--resume=')) out.push(arg.slice('--resume='.length));
  });
  return out;
}

function namesChainByPrefix(arg: string, probe: HermesInUseProbe): boolean {
  if (!PREFIX.test(arg)) return false;
  const lower = arg.toLowerCase();
  const matching = probe.allIds.filter((i) => i.startsWith(arg) || (isUuid(i) && i.toLowerCase().startsWith(lower)));
  return matching.length > 0 && matching.every((m) => probe.chain.includes(m));
}

/**
 * Live uses of a Hermes conversation beyond the generic check: a command line outside the caller's helper chain naming
 * another id of the chain, or a `--resume`/`-r` argument that is a unique prefix of one of its ids, and the caller's
 * `HERMES_SESSION_ID` naming any id of the chain (it moves to the child after compression).
 * @public
 */
export function hermesChainHolders(proc: ProcessPort, snapshot: readonly ProcessInfo[], probe: HermesInUseProbe): InUseHolder[] {
  const others = probe.chain.filter((c) => c.toLowerCase() !== probe.id.toLowerCase());
  const own = new Set(helperChain(snapshot, proc.selfPid()).chain);
  const pidsNaming = (ids: readonly string[]): Set<number> => new Set(ids.flatMap((i) => processesNamingId(snapshot, i, own).map((p) => p.pid)));
  const namingOthers = pidsNaming(others);
  // The id itself is the common check's, in any case: a process naming it is not counted twice by its prefix.
  const namingId = pidsNaming([probe.id]);
  const found: InUseHolder[] = [];
  for (const p of snapshot) {
    if (own.has(p.pid) || !isLiveProcess(p)) continue;
    const named = namingOthers.has(p.pid);
    const byPrefix = !named && !namingId.has(p.pid) && resumeArguments(p.argv ?? []).some((a) => namesChainByPrefix(a, probe));
    if (named || byPrefix) found.push({ pid: p.pid, command: p.command, signal: 'command-line' });
  }
  const env = proc.env();
  for (const o of others) {
    for (const name of sessionVarsNaming(env, o, isUuid(o), probe.sessionEnvVars)) found.push({ pid: proc.selfPid(), command: `this process (${name})`, signal: 'session-env', detail: name });
  }
  return found;
}

import type { IdOrderMarker } from './id-order-marker.js';
import { type IdOrderUnremoved, idOrderUnremovedText } from './id-order-unremoved.js';
import type { IdOrderWait } from './id-order-wait.js';

/**
 * A marker that still blocks when the wait ends, with the evidence: who holds it, what herdr last said for certain in
 * this wait, and (for an orphan) the command that would close the session it left.
 * @public
 */
export interface IdOrderBlocker {
  /** The marker file. */
  file: string;
  /** Its content, or null when it could not be read. */
  marker: IdOrderMarker | null;
  /**
   * Why it blocks: a live owner, an orphan herdr lists or could not rule out, an unreadable file, or a gate lock busy
   * to the end.
   */
  state: 'owner-alive' | 'orphan-alive' | 'orphan-unknown' | 'unreadable' | 'gate-busy';
  /** For `owner-alive`: the owner is a create of this very process. */
  inProcess?: boolean;
  /** For `orphan-unknown`: why herdr gave no definite answer. */
  why?: 'no-time' | 'server_not_running' | 'unknown';
  /** For `unreadable`: what is wrong with the file. */
  problem?: string;
  /** The last definite herdr answer of this wait (`present`), or null when herdr never answered definitely. */
  lastDefinite: 'present' | null;
  /** For an orphan: the herdr command that closes the session it left. */
  closeCommand: string | null;
}

/**
 * The gate's refusal: the wait ran out (or was 0) while markers still blocked; nothing was started.
 * @public
 */
export interface IdOrderRefusal {
  /** Always `refused`. */
  kind: 'refused';
  /** The row name that was to be created. */
  session: string;
  /** The cwd (realpath). */
  cwd: string;
  /** The wait bound that ran out, and where it came from. */
  wait: IdOrderWait;
  /** The markers that still blocked at the last look. */
  blockers: IdOrderBlocker[];
  /** Markers the last look judged removable but could not remove (they did not block). */
  unremoved: IdOrderUnremoved[];
  /** What a person reads. */
  message: string;
}

/**
 * The command that closes an orphaned session: its pane when the marker names it, else how to find that pane.
 * @public
 */
export function idOrderCloseCommand(marker: IdOrderMarker): string {
  const herdr = `herdr --session ${marker.herdr_server}`;
  if (marker.pane_id !== null) return `${herdr} pane close ${marker.pane_id}`;
  return `${herdr} pane close "$(${herdr} agent get ${marker.herdr_name} | jq -r .result.agent.pane_id)"`;
}

function waitText(wait: IdOrderWait): string {
  const invalid = wait.source === 'invalid' ? ` (MAM_ID_ORDER_WAIT_S=${JSON.stringify(wait.raw ?? '')} is not a number of seconds; the default was used)` : '';
  return `waited ${wait.seconds} s, MAM_ID_ORDER_WAIT_S${invalid}`;
}

function stateText(b: IdOrderBlocker, wait: IdOrderWait): string {
  switch (b.state) {
    case 'unreadable':
      return `unreadable marker (${b.problem ?? 'invalid'}): check it, then remove it by hand`;
    case 'gate-busy':
      return 'the gate lock stayed busy until the wait ran out (another waiter was judging the markers)';
    case 'owner-alive':
      return b.inProcess === true ? 'another create of this process is still in progress' : `the creating process (pid ${b.marker?.owner_pid ?? '?'}) is still running`;
    case 'orphan-alive':
      return 'its creating process is gone and its row is not registered; herdr says the session is still alive';
    case 'orphan-unknown': {
      const last = b.lastDefinite === 'present' ? '; herdr last said the session is alive' : '';
      if (b.why === 'no-time') {
        const zero = wait.seconds === 0 ? 'MAM_ID_ORDER_WAIT_S=0 asks herdr nothing' : 'no time was left to ask herdr';
        return `its creating process is gone and its row is not registered; ${zero}, so the marker is kept${last}`;
      }
      const said = b.why === 'server_not_running' ? 'herdr answered server_not_running' : 'herdr did not answer (the agent list failed or timed out)';
      return `its creating process is gone and its row is not registered; ${said}, so the marker is kept${last}`;
    }
    default: {
      const never: never = b.state;
      return never;
    }
  }
}

/**
 * The refusal text: one line for the refusal, one per blocker, and the close command under each orphan; then one per
 * marker that could not be removed.
 * @public
 */
export function idOrderRefusalMessage(session: string, cwd: string, wait: IdOrderWait, blockers: readonly IdOrderBlocker[], unremoved: readonly IdOrderUnremoved[] = []): string {
  const lines = [
    `id-order gate: refused to start ${JSON.stringify(session)} in ${JSON.stringify(cwd)}: another post-discovered session there has not registered its conversation yet (${waitText(wait)})`,
  ];
  for (const b of blockers) {
    const m = b.marker;
    const who = m === null ? b.file : `${JSON.stringify(m.session)} (herdr server ${m.herdr_server}, attempt ${m.attempt}, marker ${b.file})`;
    lines.push(`  ${who}: ${stateText(b, wait)}`);
    if (b.closeCommand !== null) lines.push(`    to close the orphaned session: ${b.closeCommand}`);
  }
  for (const u of unremoved) lines.push(`  ${idOrderUnremovedText(u)}`);
  return lines.join('\n');
}

import type { HerdrAgentInfo, HerdrResult } from '../ports/herdr.js';

/**
 * What one `agent wait` came to; `healthy` says whether herdr's socket answered (a timeout is healthy, a transport error is not).
 * @public
 */
export type WatchOutcome =
  | { kind: 'matched'; healthy: true; agent: HerdrAgentInfo }
  | { kind: 'timeout' | 'agent_not_found'; healthy: true; errorCode: 'timeout' | 'agent_not_found'; message: string }
  | { kind: 'error'; healthy: boolean; errorCode: string; message: string; exitCode: number }
  | { kind: 'transport_error'; healthy: false; message: string; exitCode: number | null; stderr: string };

/**
 * Evidence a wait produced: only a matched snapshot is one.
 * @public
 */
export interface WatchObservation {
  /** herdr's snapshot of the agent that the wait matched. */
  agent: HerdrAgentInfo;
}

/**
 * Reads a {@link HerdrPort.agentWait} answer as a {@link WatchOutcome}: exit 1 errors other than `server_not_running` are the socket answering, exit 2 (usage) is not.
 * @public
 */
export function watchOutcomeOf(result: HerdrResult<HerdrAgentInfo>): WatchOutcome {
  switch (result.kind) {
    case 'ok':
      return { kind: 'matched', healthy: true, agent: result.value };
    case 'error':
      if (result.code === 'timeout' || result.code === 'agent_not_found') {
        return { kind: result.code, healthy: true, errorCode: result.code, message: result.message };
      }
      return { kind: 'error', healthy: result.exitCode === 1 && result.code !== 'server_not_running', errorCode: result.code, message: result.message, exitCode: result.exitCode };
    case 'transport_error':
      return { kind: 'transport_error', healthy: false, message: result.message, exitCode: result.exitCode, stderr: result.stderr };
    default: {
      const never: never = result;
      return never;
    }
  }
}

/**
 * The observation a wait outcome carries, or null: a timeout or an error proves nothing about the agent's state.
 * @public
 */
export function observationFrom(outcome: WatchOutcome): WatchObservation | null {
  return outcome.kind === 'matched' ? { agent: outcome.agent } : null;
}

// The sandboxes the reset fault sweep runs over: which fake agents are live (one row each, in this order) and which of
// their rows have the id taken off before every run (a post-discovered row recording no id: the reset captures it
// before the stop and records it into the spec, §5.2-8b).
import type { AgentName } from '../../src/ids/agent-names.js';
import type { SandboxSessionSpec } from '../../src/testing/sandbox/sandbox-types.js';

/** One sandbox of the sweep. */
export interface FaultResetScenario {
  /** How a test title names it. */
  label: string;
  /** The sessions, started in this order; the reset's targets. */
  sessions: readonly SandboxSessionSpec[];
  /** The agents whose row's id is taken off before every run (post-discovered only). */
  unrecorded: readonly AgentName[];
}

const CLAUDE_CODEX_SESSIONS: SandboxSessionSpec[] = [
  { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer' },
  { name: 'reviewer-codex-01', agent: 'codex', role: 'reviewer' },
];

/** Claude (pre-assigned id) and Codex (post-discovered, captured at onboarding), every id recorded. */
export const CLAUDE_CODEX: FaultResetScenario = { label: 'claude + codex', sessions: CLAUDE_CODEX_SESSIONS, unrecorded: [] };

/** Claude and Codex, with Codex's id taken off its row before every run. */
export const CLAUDE_CODEX_UNRECORDED: FaultResetScenario = { label: "claude + codex, codex's id not recorded", sessions: CLAUDE_CODEX_SESSIONS, unrecorded: ['codex'] };

const OPENCODE_AGY_HERMES_SESSIONS: SandboxSessionSpec[] = [
  { name: 'coder-opencode-01', agent: 'opencode', role: 'coder' },
  { name: 'planner-agy-01', agent: 'agy', role: 'planner' },
  { name: 'creator-hermes-01', agent: 'hermes', role: 'creator' },
];

/**
 * OpenCode (`ses_…` ids, rows of a shared database), agy (a conversation database, a presence lock and a cache) and
 * Hermes (rows of a shared database): three post-discovered agents in one cwd, so every create passes the id-order gate.
 */
export const OPENCODE_AGY_HERMES: FaultResetScenario = { label: 'opencode + agy + hermes', sessions: OPENCODE_AGY_HERMES_SESSIONS, unrecorded: [] };

/** OpenCode, agy and Hermes, with agy's id taken off its row before every run. */
export const OPENCODE_AGY_HERMES_UNRECORDED: FaultResetScenario = {
  label: "opencode + agy + hermes, agy's id not recorded",
  sessions: OPENCODE_AGY_HERMES_SESSIONS,
  unrecorded: ['agy'],
};

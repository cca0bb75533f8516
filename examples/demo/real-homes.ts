// The demo's first sandbox: three homes the real agent CLIs wrote (Claude Code 2.1, Codex 0.171, OpenCode 1.18; copied from
// test/fixtures/real and rewritten to a temp root), their workspaces, and a control workspace for the registry.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentName } from '../../src/index.js';
import { materializeStage, type RealStage } from '../../test/helpers/real-stage.js';
import { check, line, short } from './ui.js';

export interface RealHome {
  agent: AgentName;
  stage: RealStage;
}

export interface RealHomes {
  root: string;
  /** The control workspace: `.mam/agent-sessions.yaml` lives here. */
  team: string;
  homes: RealHome[];
}

const STAGES: readonly [AgentName, string][] = [
  ['claude', 'claude/02-after-tui'],
  ['codex', 'codex/03-two-sessions'],
  ['opencode', 'opencode/03-two-sessions-before-delete'],
];

/** Lays the three homes out under `root` (one HOME per agent, as captured) and an empty control workspace. */
export function buildRealHomes(root: string): RealHomes {
  const homes = STAGES.map(([agent, name]) => {
    const stage = materializeStage(name, root);
    const present = stage.expected.conversations.filter((c) => c.status === 'present');
    check(present.length > 0, `${name} has conversations`);
    line(`${agent.padEnd(8)} ${name}: HOME ${stage.home.slice(root.length + 1)}, ${present.length} conversations (${present.map((c) => short(c.id)).join(' ')})`);
    return { agent, stage };
  });
  const team = join(root, 'team');
  mkdirSync(team);
  return { root, team, homes };
}

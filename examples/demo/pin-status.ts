// Pin and status over the real homes: rows registered in the control workspace's `.mam/agent-sessions.yaml` with the ids
// discovery found, then `mam status` (the example CLI's command) verifying each recorded id on disk through the adapters.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { type AgentName, getAdapter, nodePorts, ownKey, pinUnclaimed, recordedId, rowAgent, SessionRegistry, type SessionRow } from '../../src/index.js';
import { registryPaths } from '../../src/entries/registry.js';
import { type ResumeProbe, type ResumeState, statusCommand } from '../../src/cli/commands/status.js';
import type { Found } from './discover.js';
import type { RealHomes } from './real-homes.js';
import { block, check, line, short } from './ui.js';

/** A row the demo registers: its name, role, and the workspace (by base name) whose conversation it pins. */
interface RowPlan {
  name: string;
  agent: AgentName;
  role: string;
  workspace: string;
}

const ROWS: readonly RowPlan[] = [
  { name: 'reviewer-claude-01', agent: 'claude', role: 'reviewer', workspace: 'ws-claude-tui' },
  { name: 'reviewer-claude-02', agent: 'claude', role: 'reviewer', workspace: 'ws-claude-tui' },
  { name: 'coder-codex-01', agent: 'codex', role: 'coder', workspace: 'ws-codex2' },
  { name: 'tester-opencode-01', agent: 'opencode', role: 'tester', workspace: 'ws-opencode' },
];

/** A pinned row: its name, agent, cwd and the id it records. */
export interface Pinned {
  name: string;
  agent: AgentName;
  cwd: string;
  id: string;
}

/**
 * Registers the rows (status `stopped`: nothing runs yet) and pins on each the newest discovered id no other row records
 * (`pinUnclaimed`, inside one locked update); shows the rows as the YAML now records them.
 */
export async function pinRows(real: RealHomes, found: readonly Found[]): Promise<Pinned[]> {
  const registry = new SessionRegistry(real.team);
  const outcomes = await registry.update((draft) => {
    const said: string[] = [];
    for (const plan of ROWS) {
      const f = found.find((x) => x.home.agent === plan.agent && basename(x.workspace) === plan.workspace);
      check(f !== undefined && f.ids.length > 0, `${plan.workspace} has a discovered conversation`);
      const row: SessionRow = { name: plan.name, agent: plan.agent, status: 'stopped', role: plan.role, pane: { cwd: f.workspace } };
      draft.herdr_sessions.push(row);
      // Newest first; an id another row already records is refused, and the next one is tried.
      for (const id of f.ids) {
        const got = pinUnclaimed(draft, row, plan.agent, id);
        said.push(`${plan.name}: pinUnclaimed ${short(id)} → ${got}`);
        if (got === 'pinned') break;
      }
    }
    return said;
  });
  for (const o of outcomes) line(o);
  check(outcomes.some((o) => o.endsWith('claimed-by-other-row')), 'a second row of one workspace cannot take the first row\'s id');
  const rows = (await registry.snapshot()).herdr_sessions;
  const yaml = readFileSync(registryPaths(real.team).yaml, 'utf8');
  const pinned = rows.map((r) => {
    const agent = rowAgent(r);
    const id = recordedId(r);
    check(agent !== undefined && id !== null && r.session_id_source === 'discovered' && r.session_id_verified === true, `${r.name} is pinned`);
    check(yaml.includes(`${ownKey(agent)}: ${id}`), `${r.name}'s id is in agent-sessions.yaml`);
    line(`row ${r.name.padEnd(19)} ${r.status.padEnd(8)} ${ownKey(agent)}: ${short(id)} (cwd ${basename(r.pane?.cwd ?? '')})`);
    return { name: r.name, agent, cwd: r.pane?.cwd ?? real.team, id };
  });
  check(new Set(pinned.map((p) => p.id)).size === pinned.length, 'no two rows record the same id');
  return pinned;
}

// The status probe with each agent's own home and env (the three homes differ; `mam status --home` takes one).
function probeFor(real: RealHomes): ResumeProbe {
  return async (row) => {
    const agent = rowAgent(row);
    const id = recordedId(row);
    const home = real.homes.find((h) => h.agent === agent);
    if (agent === undefined || id === null || home === undefined) return 'no';
    const env = { ...process.env, ...home.stage.env };
    const ok = await getAdapter(agent, { ports: nodePorts({ env }) }).verifyArtifact(id, { workspace: row.pane?.cwd ?? real.team, home: home.stage.home, env }, 'verify');
    return ok ? 'yes' : 'no';
  };
}

/** `mam status` on the control workspace: prints its table and checks every row's recorded id and resume state. */
export async function showStatus(real: RealHomes, pinned: readonly Pinned[], resumes: (p: Pinned) => ResumeState): Promise<void> {
  let text = '';
  let json = '';
  const io = (sink: (s: string) => void) => ({ stdout: sink, stderr: (s: string) => console.error(s) });
  const probe = probeFor(real);
  check((await statusCommand(['--workspace', real.team], io((s) => (text += s)), { probe })) === 0, 'mam status exits 0');
  check((await statusCommand(['--workspace', real.team, '--json'], io((s) => (json += s)), { probe })) === 0, 'mam status --json exits 0');
  block(text.replace(/ +$/gm, ''));
  const detail = (JSON.parse(json) as { sessionsDetail: { name: string; ownId: string | null; resumeState: ResumeState }[] }).sessionsDetail;
  for (const p of pinned) {
    const d = detail.find((x) => x.name === p.name);
    check(d?.ownId === p.id, `status shows ${p.name}'s recorded id`);
    check(d.resumeState === resumes(p), `status says ${p.name} resume=${resumes(p)} (got ${d.resumeState})`);
  }
}

// What a reset left behind in a sandbox, read with the real filesystem: the rows of the targets, whether an old
// conversation is still on disk, and the checks of "the end state of a clean reset" (as test/integration/reset-run and
// reset-crash-random assert it): every target running on a new recorded id whose conversation is on disk, every old
// conversation gone, the spec and the loop guard removed, no temp file of an atomic write left in `.mam/`, and in the
// fake herdr one agent pane per target and no other live fake agent.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getAdapter } from '../../src/agents/get-adapter.js';
import { sanitizeHerdrAgentName } from '../../src/herdr/sanitize.js';
import type { AgentName } from '../../src/ids/agent-names.js';
import { recordedId } from '../../src/registry/row-agent.js';
import { resetSpecPath } from '../../src/reset/index.js';
import type { FakeHerdrState } from '../../src/testing/herdr/fake-herdr-types.js';
import type { Sandbox } from '../../src/testing/sandbox/sandbox-types.js';
import { strs } from './artifact-strings.js';

/** One target's row as the registry has it now (null fields: no row, or no id recorded). */
export interface TargetRow {
  name: string;
  agent: AgentName;
  status: string | null;
  id: string | null;
  createdAt: string | null;
}

/** The targets' rows now, by name (the registry must be readable: a throw here is a finding). */
export async function targetRows(sb: Sandbox, targets: readonly { name: string; agent: AgentName }[]): Promise<TargetRow[]> {
  const rows = (await sb.registry.snapshot()).herdr_sessions;
  return targets.map(({ name, agent }) => {
    const r = rows.find((x) => x.name === name);
    const created = r?.herdr_session_created_at;
    return { name, agent, status: r === undefined ? null : String(r.status), id: r === undefined ? null : recordedId(r), createdAt: typeof created === 'string' ? created : null };
  });
}

function namesUnder(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir, { recursive: true }).map(String) : [];
}

/** What of conversation `id` is still on disk: the adapter's residual (files and DB rows) and any file under home naming it. */
export async function onDisk(sb: Sandbox, agent: AgentName, id: string): Promise<string[]> {
  const residual = strs(await getAdapter(agent, { ports: sb.ports() }).residualArtifacts(id, sb.context()));
  const named = namesUnder(sb.home).filter((f) => f.includes(id));
  return [...new Set([...residual, ...named.map((f) => join(sb.home, f))])];
}

/** The temp files of an interrupted atomic write still under `.mam/` (`.<name>.<uuid>.tmp`). */
export function leftoverTemps(sb: Sandbox): string[] {
  return namesUnder(join(sb.workspace, '.mam')).filter((f) => /(^|\/)\.[^/]+\.tmp$/.test(f));
}

/**
 * What the fake herdr and the process table hold beyond one agent pane per target: a pane with no agent or another
 * agent, a target's agent in two panes, a live fake agent (a process run from the sandbox's bin dir) herdr does not know.
 */
export async function liveLeftovers(sb: Sandbox, targets: readonly { name: string }[]): Promise<string[]> {
  const state = JSON.parse(readFileSync(sb.herdrStatePath, 'utf8')) as FakeHerdrState;
  const wanted = new Set(targets.map((t) => sanitizeHerdrAgentName(t.name)));
  const seen = new Map<string, number>();
  const pids = new Set<number>();
  const problems: string[] = [];
  for (const [server, session] of Object.entries(state.sessions)) {
    for (const pane of session.workspaces.flatMap((w) => w.panes.map((p) => ({ ...p, label: w.label })))) {
      const name = pane.agent?.name;
      if (pane.agent !== null) pids.add(pane.agent.pid);
      if (name === undefined || !wanted.has(name)) problems.push(`herdr ${server}: pane ${pane.pane_id} (${pane.label}) holds ${name === undefined ? 'no agent' : `agent ${name}`}`);
      else seen.set(name, (seen.get(name) ?? 0) + 1);
    }
  }
  for (const [name, count] of seen) if (count > 1) problems.push(`herdr: agent ${name} in ${count} panes`);
  // A process SIGKILLed by a pane close may take a moment to die: looked at again for up to a second.
  let strays: string[] = [];
  for (let look = 0; look < 5; look += 1) {
    if (look > 0) await new Promise((r) => setTimeout(r, 200));
    strays = (await sb.ports().proc.snapshot())
      .filter((p) => (p.argv ?? []).some((a) => a.startsWith(`${sb.binDir}/`) && !a.endsWith('/herdr')) && p.state !== 'zombie' && p.state !== 'dead' && !pids.has(p.pid))
      .map((p) => `fake agent pid ${p.pid} still alive, in no herdr pane: ${p.command}`);
    if (strays.length === 0) break;
  }
  return [...problems, ...strays];
}

/**
 * Broken promises of "a clean reset ended here", given the rows before it: each target running with a new recorded id
 * whose conversation is on disk, each old conversation gone, no spec, no loop guard, no temp file in `.mam/`, nothing
 * live beyond one agent pane per target ({@link liveLeftovers}).
 */
export async function cleanEndProblems(sb: Sandbox, before: readonly TargetRow[]): Promise<string[]> {
  const problems: string[] = [];
  const now = await targetRows(sb, before);
  for (const [i, row] of now.entries()) {
    const old = before[i];
    if (row.status !== 'running') problems.push(`${row.name}: row is ${row.status ?? 'absent'}, not running`);
    if (row.id === null) problems.push(`${row.name}: no id recorded`);
    else if (row.id === old?.id) problems.push(`${row.name}: still records its old id`);
    else if ((await onDisk(sb, row.agent, row.id)).length === 0) problems.push(`${row.name}: its new conversation is not on disk`);
    if (row.createdAt === old?.createdAt) problems.push(`${row.name}: still the old instance`);
    if (old?.id != null) for (const p of await onDisk(sb, old.agent, old.id)) problems.push(`${row.name}: old conversation left: ${p}`);
  }
  if (existsSync(resetSpecPath(sb.workspace))) problems.push('the reset spec is still there');
  if (existsSync(join(sb.workspace, '.mam', 'loop-guard-active'))) problems.push('the loop guard marker is still there');
  for (const t of leftoverTemps(sb)) problems.push(`temp file left in .mam: ${t}`);
  problems.push(...(await liveLeftovers(sb, before)));
  return problems;
}

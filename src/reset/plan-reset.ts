import { basename } from 'node:path';
import { realpathLenient } from '../registry/realpath-lenient.js';
import type { RegistryInspection } from '../registry/registry-state.js';
import { recordedIdIn, rowAgentIn } from '../registry/row-agent.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import type { AgentName } from '../ids/agent-names.js';
import { agentsOf, type RegistryAgentsOption } from '../registry/registry-agents.js';
import type { SessionRow } from '../registry/session-row.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { ResetPlan, ResetPlanError, ResetSkippedRow, ResetTarget } from './reset-target.js';

interface RowView {
  name: string;
  status: unknown;
  cwd: unknown;
  valid: boolean;
  row: Record<string, unknown>;
  problem: string | null;
}

function views(inspection: RegistryInspection): RowView[] {
  const out: { index: number; view: RowView }[] = [];
  inspection.state.herdr_sessions.forEach((row, i) => {
    out.push({ index: i, view: { name: row.name, status: row.status, cwd: row.pane?.cwd, valid: true, row, problem: null } });
  });
  for (const bad of inspection.invalidRows) {
    const raw = typeof bad.row === 'object' && bad.row !== null && !Array.isArray(bad.row) ? (bad.row as Record<string, unknown>) : {};
    const pane = typeof raw['pane'] === 'object' && raw['pane'] !== null ? (raw['pane'] as Record<string, unknown>) : {};
    const problem = bad.issues.map((i) => i.message).join('; ') || 'invalid row';
    out.push({ index: bad.index, view: { name: bad.name ?? `#${bad.index}`, status: raw['status'], cwd: pane['cwd'], valid: false, row: raw, problem } });
  }
  // The valid rows keep registry order among themselves; the bad ones are placed by their file index.
  return out.sort((a, b) => a.index - b.index).map((o) => o.view);
}

function targetOf(v: RowView, root: string, agents: AgentCatalog<string>): ResetTarget | ResetPlanError {
  if (!v.valid) return { name: v.name, problem: `unknown agent or invalid row: ${v.problem ?? ''}` };
  const row = v.row as SessionRow;
  const agent = rowAgentIn(row, agents) as AgentName | undefined;
  if (agent === undefined) return { name: v.name, problem: 'unknown agent' };
  const role = typeof row.role === 'string' ? row.role.trim() : '';
  if (role === '') return { name: v.name, problem: 'empty role' };
  return {
    name: row.name,
    agent,
    role: row.role ?? role,
    herdrServer: typeof row.herdr_server === 'string' && row.herdr_server !== '' ? row.herdr_server : 'default',
    herdrWorkspace: typeof row.herdr_workspace === 'string' && row.herdr_workspace !== '' ? row.herdr_workspace : basename(root),
    oldId: recordedIdIn(row, agents),
    oldCreatedAt: typeof row.herdr_session_created_at === 'string' ? row.herdr_session_created_at : null,
  };
}

/**
 * The reset plan over a lenient registry read: running rows whose pane cwd resolves to the workspace are targets (in
 * registry order), every other row is skipped with a reason, and a running control-root row that cannot be recreated is
 * an error.
 * @public
 */
export async function planReset(inspection: RegistryInspection, workspace: string, fs: FileSystemPort, opts: RegistryAgentsOption<string> = {}): Promise<ResetPlan> {
  const agents = agentsOf(opts);
  const root = await realpathLenient(fs, workspace);
  const targets: ResetTarget[] = [];
  const skipped: ResetSkippedRow[] = [];
  const errors: ResetPlanError[] = [];
  for (const v of views(inspection)) {
    const cwd = typeof v.cwd === 'string' && v.cwd !== '' ? await realpathLenient(fs, v.cwd) : null;
    if (cwd !== root) {
      skipped.push({ name: v.name, reason: cwd === null ? 'not the control root (no pane cwd)' : 'not the control root' });
      continue;
    }
    if (v.status !== 'running') {
      skipped.push({ name: v.name, reason: `status ${typeof v.status === 'string' ? v.status : 'unknown'}` });
      continue;
    }
    const t = targetOf(v, root, agents);
    if ('problem' in t) errors.push(t);
    else targets.push(t);
  }
  return { targets, skipped, orchestrators: [...inspection.state.orchestrator_uuids], errors };
}

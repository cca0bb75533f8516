// mam status --workspace WS [--home DIR] [--agents MODULE] [--json] → the registry's rows with their resume state, and the orchestrators.
import { type Io, runCommand } from './cli-kit.js';
import { resumeStates, type ResumeState } from '../../inspect/resume-states.js';
import { nodePorts } from '../../node/node-ports.js';
import type { Ports } from '../../ports/index.js';
import { recordedId, rowAgent } from '../../registry/row-agent.js';
import { SessionRegistry } from '../../registry/session-registry.js';
import type { SessionRow } from '../../registry/session-row.js';
import { loadAgentsOption } from './agents-option.js';

export type { ResumeState } from '../../inspect/resume-states.js';

/** Decides a row's resume state; the default knows only whether an id is recorded (adapters will check the disk). */
export type ResumeProbe = (row: SessionRow, ctx: { workspace: string; home: string }) => Promise<ResumeState>;

/** Without adapters: `no` for a row with no recorded id, else `unknown`. */
export const recordedIdProbe: ResumeProbe = async (row) => (recordedId(row) === null ? 'no' : 'unknown');

let probePorts: Ports | undefined;

/** Through the adapters: `yes` when the pinned conversation verifies on disk for the row's cwd, `no` otherwise (one row; `statusCommand` checks all rows in one pass). */
export const adapterProbe: ResumeProbe = async (row, { workspace, home }) => {
  probePorts ??= nodePorts();
  return (await resumeStates([row], { workspace, home, ports: probePorts }))[0] ?? 'unknown';
};

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  ')).join('\n');
}

/** `mam status`: exit 0, 1 when the registry cannot be read, 2 on a usage error. */
export function statusCommand(argv: string[], io: Io, opts: { probe?: ResumeProbe } = {}): Promise<number> {
  return runCommand('status', argv, io, async (ctx) => {
    const workspace = await ctx.workspace(true);
    const home = await ctx.home();
    const ports = ctx.ports();
    const probe = opts.probe;
    const given = ctx.str('agents');
    const agents = given === undefined ? undefined : await loadAgentsOption(given);
    const state = await new SessionRegistry(workspace, { ports, agents }).snapshot();
    // Without a probe, every row in one pass on one set of ports: each store opened once, OpenCode's paths asked once.
    const batch = probe === undefined ? await resumeStates(state.herdr_sessions, { workspace, home, ports, agents }) : [];
    const detail = await Promise.all(
      state.herdr_sessions.map(async (row, i) => ({
        name: row.name,
        agent: rowAgent<string>(row, { agents }) ?? null,
        status: row.status,
        role: row.role ?? null,
        ownId: recordedId(row, { agents }),
        resumeState: probe === undefined ? (batch[i] ?? 'unknown') : await probe(row, { workspace, home }),
      })),
    );
    if (ctx.asJson) {
      ctx.json({ kind: 'status', workspace, sessionsDetail: detail, orchestratorUuids: state.orchestrator_uuids });
      return 0;
    }
    const rows = [['NAME', 'AGENT', 'STATUS', 'RESUME', 'OWN_ID', 'ROLE'], ...detail.map((d) => [d.name, d.agent ?? '-', d.status, d.resumeState, d.ownId ?? '-', d.role || '-'])];
    const orcs = state.orchestrator_uuids.map((id) => `orchestrator ${id} (not a row)\n`).join('');
    io.stdout(detail.length === 0 ? `no sessions registered in ${workspace}\n${orcs}` : `${table(rows)}\n${orcs}`);
    return 0;
  });
}

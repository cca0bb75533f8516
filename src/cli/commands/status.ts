// mam status --workspace WS [--home DIR] [--json] → the registry's rows with their resume state, and the orchestrators.
import { resolve } from 'node:path';
import { parseOptions } from './parse-options.js';
import { MamError, nodePorts, type Ports, recordedId, resumeStates, type ResumeState, rowAgent, SessionRegistry, type SessionRow } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

export type { ResumeState } from '../../index.js';

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

const USAGE = 'usage: mam status [--workspace WS] [--home DIR] [--json]';

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('  ')).join('\n');
}

/** `mam status`: exit 0, 1 when the registry cannot be read, 2 on a usage error. */
export async function statusCommand(argv: string[], io: Io, opts: { probe?: ResumeProbe } = {}): Promise<number> {
  let values;
  try {
    ({ values } = parseOptions({ args: argv, options: { workspace: { type: 'string' }, home: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    io.stderr(`mam status: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const workspace = resolve(values.workspace ?? process.cwd());
  const ports = nodePorts();
  const home = values.home ?? ports.proc.env()['HOME'] ?? '/';
  const probe = opts.probe;
  let state;
  try {
    state = await new SessionRegistry(workspace, { ports }).snapshot();
  } catch (err) {
    if (!(err instanceof MamError)) throw err;
    io.stderr(`mam status: ${err.message}\n`);
    return 1;
  }
  // Without a probe, every row in one pass on one set of ports: each store opened once, OpenCode's paths asked once.
  const batch = probe === undefined ? await resumeStates(state.herdr_sessions, { workspace, home, ports }) : [];
  const detail = await Promise.all(
    state.herdr_sessions.map(async (row, i) => ({
      name: row.name,
      agent: rowAgent(row) ?? null,
      status: row.status,
      role: row.role ?? null,
      own_id: recordedId(row),
      resume_state: probe === undefined ? (batch[i] ?? 'unknown') : await probe(row, { workspace, home }),
    })),
  );
  if (values.json === true) {
    io.stdout(`${JSON.stringify({ workspace, sessions_detail: detail, orchestrator_uuids: state.orchestrator_uuids }, null, 2)}\n`);
    return 0;
  }
  const rows = [['NAME', 'AGENT', 'STATUS', 'RESUME', 'OWN_ID', 'ROLE'], ...detail.map((d) => [d.name, d.agent ?? '-', d.status, d.resume_state, d.own_id ?? '-', d.role || '-'])];
  const orcs = state.orchestrator_uuids.map((id) => `orchestrator ${id} (not a row)\n`).join('');
  io.stdout(detail.length === 0 ? `no sessions registered in ${workspace}\n${orcs}` : `${table(rows)}\n${orcs}`);
  return 0;
}

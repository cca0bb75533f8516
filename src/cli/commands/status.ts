// mam status --workspace WS [--home DIR] [--json] → the registry's rows with their resume state, and the orchestrators.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { getAdapter, MamError, recordedId, rowAgent, SessionRegistry, type SessionRow, nodePorts } from '../../index.js';

interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
}

/** Can the row's conversation be resumed: `yes` when its pinned conversation is on disk, `no` when it has none. */
export type ResumeState = 'yes' | 'no' | 'unknown';

/** Decides a row's resume state; the default knows only whether an id is recorded (adapters will check the disk). */
export type ResumeProbe = (row: SessionRow, ctx: { workspace: string; home: string }) => Promise<ResumeState>;

/** Without adapters: `no` for a row with no recorded id, else `unknown`. */
export const recordedIdProbe: ResumeProbe = async (row) => (recordedId(row) === null ? 'no' : 'unknown');

/** Through the adapters: `yes` when the pinned conversation verifies on disk for the row's cwd, `no` otherwise. */
export const adapterProbe: ResumeProbe = async (row, { workspace, home }) => {
  const id = recordedId(row);
  const agent = rowAgent(row);
  if (id === null || agent === undefined || agent === null) return 'no';
  try {
    const ok = await getAdapter(agent).verifyArtifact(id, { workspace: row.pane?.cwd ?? workspace, home: home }, 'verify');
    return ok ? 'yes' : 'no';
  } catch {
    return 'unknown';
  }
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
    ({ values } = parseArgs({ args: argv, options: { workspace: { type: 'string' }, home: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (err) {
    io.stderr(`mam status: ${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help === true) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const workspace = resolve(values.workspace ?? process.cwd());
  const home = values.home ?? nodePorts().proc.env()['HOME'] ?? '/';
  const probe = opts.probe ?? adapterProbe;
  let state;
  try {
    state = await new SessionRegistry(workspace).snapshot();
  } catch (err) {
    if (!(err instanceof MamError)) throw err;
    io.stderr(`mam status: ${err.message}\n`);
    return 1;
  }
  const detail = await Promise.all(
    state.herdr_sessions.map(async (row) => ({
      name: row.name,
      agent: rowAgent(row) ?? null,
      status: row.status,
      role: row.role ?? null,
      own_id: recordedId(row),
      resume_state: await probe(row, { workspace, home }),
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

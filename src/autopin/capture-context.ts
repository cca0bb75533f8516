import { basename } from 'node:path';
import type { HomeDiscoveryContext } from '../agents/types.js';
import type { HerdrAgentInfo, HerdrPaneProcessInfo } from '../ports/herdr.js';
import type { SessionRow } from '../registry/session-row.js';
import { type RowCaptureDeps, rowHerdrServer } from './row-capture-deps.js';
import { describeError } from '../errors.js';

/**
 * A row's discovery context, or why none can be built.
 * @public
 */
export type CaptureContextResult = { ok: true; ctx: HomeDiscoveryContext } | { ok: false; reason: string };

function positivePid(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}

// The pane's agent process: the foreground process named after the agent, else the first one.
function agentPid(info: HerdrPaneProcessInfo, agent: string): number | undefined {
  const fg = info.foreground_processes ?? [];
  const named = fg.find((p) => p.name === agent || (p.argv0 !== undefined && basename(p.argv0) === agent));
  return positivePid((named ?? fg[0])?.pid);
}

async function panePidOf(deps: RowCaptureDeps, row: SessionRow, agent: string, live: HerdrAgentInfo | null): Promise<number | undefined> {
  if (live !== null && live.pane_id !== '') {
    const info = await deps.ports.herdr.paneProcessInfo(live.pane_id, { session: rowHerdrServer(row) }).catch(() => null);
    const pid = info?.kind === 'ok' ? agentPid(info.value, agent) : undefined;
    if (pid !== undefined) return pid;
  }
  return positivePid(row.pane?.pid);
}

/**
 * The discovery context a row's capture runs in: `workspace` = realpath of the row's pane cwd, the home, the session
 * epoch, the pane's agent pid (from herdr's `pane process-info` of the pane the live agent is in, else `row.pane.pid`), and
 * `claimed` as the ids other rows record.
 * @public
 */
export async function captureContextOf(
  deps: RowCaptureDeps,
  row: SessionRow,
  agent: string,
  live: HerdrAgentInfo | null,
  claimed: readonly string[],
): Promise<CaptureContextResult> {
  const cwd = row.pane?.cwd;
  if (typeof cwd !== 'string' || cwd === '') return { ok: false, reason: 'the row names no pane cwd' };
  let workspace: string;
  try {
    workspace = await deps.ports.fs.realpath(cwd);
  } catch (err) {
    return { ok: false, reason: `the pane cwd ${JSON.stringify(cwd)} cannot be resolved (${describeError(err)})` };
  }
  const epoch = row.herdr_session_epoch;
  const panePid = await panePidOf(deps, row, agent, live);
  const ctx: HomeDiscoveryContext = {
    workspace,
    home: deps.home,
    siblingClaimedIds: [...claimed],
    ...(deps.env === undefined ? {} : { env: deps.env }),
    ...(typeof epoch === 'number' && Number.isFinite(epoch) ? { epoch } : {}),
    ...(panePid === undefined ? {} : { panePid }),
  };
  return { ok: true, ctx };
}

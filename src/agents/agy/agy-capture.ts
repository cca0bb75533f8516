import type { ProcessInfo, ProcessPort } from '../../ports/process.js';
import { type CaptureCandidate, decideCapture } from '../common/capture.js';
import type { CaptureResult, CaptureRow, HomeDiscoveryContext } from '../types.js';

/**
 * What the agy capture needs from its adapter.
 * @public
 */
export interface AgyCaptureDeps {
  proc: ProcessPort;
  canonical(id: string): string | null;
  discover(ctx: HomeDiscoveryContext): Promise<string[]>;
  verify(id: string, ctx: HomeDiscoveryContext): Promise<boolean>;
  /** The database, sidecars and presence lock of a canonical id. */
  heldPaths(id: string, ctx: HomeDiscoveryContext): Promise<string[]>;
}

function descendantsOf(snapshot: readonly ProcessInfo[], root: number): Set<number> {
  const children = new Map<number, number[]>();
  for (const p of snapshot) if (p.pid !== p.ppid) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const out = new Set<number>([root]);
  const todo = [root];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    for (const child of children.get(pid) ?? []) {
      if (out.has(child)) continue;
      out.add(child);
      todo.push(child);
    }
  }
  return out;
}

function panePidOf(row: CaptureRow, ctx: HomeDiscoveryContext): number | undefined {
  const pane = typeof row.pane === 'object' && row.pane !== null ? (row.pane as { pid?: unknown }) : undefined;
  const pid = ctx.panePid ?? pane?.pid ?? undefined;
  return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

// One snapshot and one lsof call: which of the ids has its database, a sidecar or its presence lock held by the pane
// process or one of its descendants other than the calling process.
async function heldByPane(deps: AgyCaptureDeps, ids: readonly string[], panePid: number, ctx: HomeDiscoveryContext): Promise<Set<string>> {
  const owner = new Map<string, string>();
  for (const id of ids) for (const path of await deps.heldPaths(id, ctx)) owner.set(path, id);
  const pane = descendantsOf(await deps.proc.snapshot(), panePid);
  // The calling process holds a database only to read it (a connection kept between calls): never proof of the pane.
  pane.delete(deps.proc.selfPid());
  const proven = new Set<string>();
  for (const h of await deps.proc.holders([...owner.keys()])) {
    const id = owner.get(h.path);
    if (id !== undefined && pane.has(h.pid)) proven.add(id);
  }
  return proven;
}

/**
 * agy's capture: the shared rule of {@link decideCapture}, where `last_conversations.json` is only a proposal — the one
 * remaining candidate is pinned only when its database or presence lock is held open by the row's pane process or one of
 * its descendants; without a pane pid, or when nothing of it is held there, the answer is `unprovable`. Never throws
 * on a process-table failure (that is unprovable too).
 * @public
 */
export async function captureAgy(deps: AgyCaptureDeps, row: CaptureRow, ctx: HomeDiscoveryContext): Promise<CaptureResult> {
  const claimed = new Set((ctx.siblingClaimedIds ?? []).map((i) => deps.canonical(i) ?? i));
  const { epoch: given, siblingClaimedIds: _claimed, ...base } = ctx;
  const epoch = given ?? row.herdr_session_epoch ?? undefined;
  const all = await deps.discover(base);
  const fresh = epoch === undefined ? new Set(all) : new Set(await deps.discover({ ...base, epoch }));
  const found: CaptureCandidate[] = await Promise.all(
    all.map(async (id) => ({ id, verified: await deps.verify(id, base), newer: fresh.has(id), claimed: claimed.has(id) })),
  );
  const contenders = found.filter((c) => c.verified && c.newer && !c.claimed).map((c) => c.id);
  const panePid = panePidOf(row, ctx);
  let proven = new Set<string>();
  if (contenders.length === 1 && panePid !== undefined) {
    proven = await heldByPane(deps, contenders, panePid, base).catch(() => new Set<string>());
  }
  return decideCapture(found.map((c) => ({ ...c, proven: proven.has(c.id) })));
}

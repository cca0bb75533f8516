import type { FileSystemPort } from '../ports/fs.js';
import type { HerdrPort, HerdrResult } from '../ports/herdr.js';
import { realpathLenient } from '../registry/realpath-lenient.js';

/**
 * The pane a new session starts in: an idle shell pane (no agent, same cwd) of a herdr workspace with the row's label, or
 * the root pane of a new workspace with that label. `created` says whether this attempt made it (and so may close it).
 * @public
 */
export type AcquiredPane = { kind: 'ok'; paneId: string; workspaceId: string; created: boolean } | { kind: 'failed'; result: Exclude<HerdrResult<unknown>, { kind: 'ok' }> };

/**
 * Finds or makes the pane for a session on `server` (workspace label `label`, cwd `cwd`).
 * @public
 */
export async function acquirePane(herdr: HerdrPort, fs: FileSystemPort, where: { server: string; label: string; cwd: string }): Promise<AcquiredPane> {
  const opts = { session: where.server };
  const list = await herdr.workspaceList(opts);
  if (list.kind === 'ok') {
    const want = await realpathLenient(fs, where.cwd);
    for (const ws of list.value.filter((w) => w.label === where.label)) {
      const panes = await herdr.paneList({ workspace: ws.workspace_id }, opts);
      if (panes.kind !== 'ok') continue;
      for (const p of panes.value) {
        const idle = p.agent === undefined && p.agent_session === undefined && p.agent_status === 'unknown';
        if (idle && typeof p.cwd === 'string' && (await realpathLenient(fs, p.cwd)) === want) return { kind: 'ok', paneId: p.pane_id, workspaceId: ws.workspace_id, created: false };
      }
    }
  } else if (list.kind === 'error' && list.code === 'server_not_running') {
    return { kind: 'failed', result: list };
  }
  const made = await herdr.workspaceCreate({ cwd: where.cwd, label: where.label }, opts);
  if (made.kind !== 'ok') return { kind: 'failed', result: made };
  return { kind: 'ok', paneId: made.value.root_pane.pane_id, workspaceId: made.value.workspace.workspace_id, created: true };
}

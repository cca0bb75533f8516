import { join } from 'node:path';
import { LoopGuard } from '../loop/loop-guard.js';
import type { Ports } from '../ports/index.js';
import type { ResetRefusal } from './reset-refusal.js';

/**
 * The live loop marker (`.mam/loop-guard-active`) and update marker (`.mam/update-in-progress`) as refusals; a stale
 * marker (dead pid, or a pid started at another time) is not one. Never writes.
 * @public
 */
export async function liveMarkers(ports: Ports, workspace: string): Promise<Extract<ResetRefusal, { kind: 'live-marker' }>[]> {
  const out: Extract<ResetRefusal, { kind: 'live-marker' }>[] = [];
  const which = [
    ['loop', join(workspace, '.mam', 'loop-guard-active'), 'a multi-agent-mux-loop'],
    ['update', join(workspace, '.mam', 'update-in-progress'), 'an update'],
  ] as const;
  for (const [marker, path, what] of which) {
    const state = await new LoopGuard(workspace, { ports, markerPath: path }).inspect();
    if (state.kind === 'live') {
      const pid = state.marker.pid;
      out.push({ kind: 'live-marker', marker, path, pid, message: `${what} is running (${marker} marker ${path}, pid ${pid}); wait for it to end` });
    } else if (state.kind === 'unreadable') {
      out.push({ kind: 'live-marker', marker, path, pid: null, message: `${what} may be starting (${marker} marker ${path}: ${state.problem}); try again shortly` });
    }
  }
  return out;
}

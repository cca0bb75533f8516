import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { AgentName } from '../../src/ids/agent-names.js';
import type { ResetTarget } from '../../src/reset/index.js';
import { makeWorkspace } from './registry-fixtures.js';

export { makeRow, UA, UB, UC, UORC } from './registry-fixtures.js';
export const UD = 'd7800004-0000-4000-8000-000000000004';

/** Writes `.mam/agent-sessions.yaml` with these rows as the reference tests' `_write_rows` does (no validation). */
export async function writeRows(ws: string, rows: unknown[], orchestrators: string[] = []): Promise<void> {
  await mkdir(join(ws, '.mam'), { recursive: true });
  await writeFile(join(ws, '.mam', 'agent-sessions.yaml'), stringify({ orchestrator_uuids: orchestrators, herdr_sessions: rows }));
}

/** A temp workspace with a worktree dir and a symlink to the workspace. */
export async function resetWorkspace(): Promise<{ ws: string; wt: string; sym: string; dispose: () => Promise<void> }> {
  const w = await makeWorkspace('mam-reset-');
  const wt = join(w.ws, 'wt', 'x');
  await mkdir(wt, { recursive: true });
  const sym = join(w.ws, '..', 'sym-ws');
  await symlink(w.ws, sym);
  return { ws: w.ws, wt, sym, dispose: w.dispose };
}

/** A spec entry with the reference tests' defaults (the TypeScript form, camelCase). */
export function target(name: string, agent: AgentName, oldId: string | null, over: Partial<ResetTarget> = {}): ResetTarget {
  return { name, agent, role: 'reviewer', herdrServer: 'default', herdrWorkspace: 'ws', oldId, oldCreatedAt: '2026-10-01T00:00:00Z', ...over };
}

/** A spec entry as the file holds it (the reference tool's snake_case keys), e.g. to write a spec by hand. */
export function specEntry(name: string, agent: string, oldId: string | null, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { name, agent, role: 'reviewer', herdr_server: 'default', herdr_workspace: 'ws', old_id: oldId, old_created_at: '2026-10-01T00:00:00Z', ...over };
}

/** Names, sizes and mtimes of everything under `dir` (the "changes nothing" evidence). */
export async function treeSnapshot(dir: string): Promise<Record<string, [string, string]>> {
  const { readdir, lstat } = await import('node:fs/promises');
  const out: Record<string, [string, string]> = {};
  const walk = async (d: string, rel: string): Promise<void> => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      const s = await lstat(p, { bigint: true });
      out[`${rel}${e.name}`] = [String(s.size), String(s.mtimeNs)];
      if (e.isDirectory()) await walk(p, `${rel}${e.name}/`);
    }
  };
  await walk(dir, '');
  return out;
}

/** A pid marker naming this test process with its real `ps` start time (a live marker). */
export async function liveMarkerText(): Promise<string> {
  const { execFileSync } = await import('node:child_process');
  const lstart = execFileSync('ps', ['-o', 'lstart=', '-p', String(process.pid)], { env: { ...process.env, LC_ALL: 'C' } }).toString().trim().split(/\s+/).join(' ');
  return `pid=${process.pid}\nlstart=${lstart}\nstarted=2026-10-29T00:00:00Z\n`;
}

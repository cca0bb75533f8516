import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { AGENT_NAMES, ownKey } from '../../src/ids/agent-names.js';
import type { SessionRow } from '../../src/registry/index.js';
import { makeTempDir } from './fs-temp.js';

export const UA = 'a7800001-0000-4000-8000-000000000001';
export const UB = 'b7800002-0000-4000-8000-000000000002';
export const UC = 'c7800003-0000-4000-8000-000000000003';
export const UORC = 'e7800005-0000-4000-8000-000000000005';

/** A row shaped like the reference tests' `_row` helper (seed 001). */
export function makeRow(
  name: string,
  agent: string,
  cwd: string,
  over: { role?: string; status?: string; ownId?: string | null; createdAt?: string; server?: string; label?: string; pid?: number; epoch?: number } = {},
): SessionRow {
  const known = (AGENT_NAMES as readonly string[]).includes(agent);
  const key = known ? ownKey(agent as (typeof AGENT_NAMES)[number]) : 'unknown_id';
  const ownId = over.ownId ?? null;
  return {
    name,
    status: over.status ?? 'running',
    role: over.role ?? 'reviewer',
    agent,
    herdr_session: over.server ?? 'default',
    herdr_server: over.server ?? 'default',
    herdr_workspace: over.label ?? 'ws',
    herdr_session_created_at: over.createdAt ?? '2026-10-01T00:00:00Z',
    herdr_session_epoch: over.epoch ?? 1700000000,
    [key]: ownId,
    session_id_source: ownId === null ? 'pending-discovery' : 'discovered',
    session_id_verified: ownId !== null,
    pane: { cwd, pid: over.pid ?? 4242, cmd: agent },
  } as SessionRow;
}

/** A real temp workspace with an empty `.mam/`, and its registry file paths. */
export async function makeWorkspace(tag = 'mam-reg-'): Promise<{ ws: string; yaml: string; db: string; mam: string; dispose: () => Promise<void> }> {
  const { dir, dispose } = await makeTempDir(tag);
  const ws = join(dir, 'ws');
  const mam = join(ws, '.mam');
  await mkdir(mam, { recursive: true });
  return { ws, mam, yaml: join(mam, 'agent-sessions.yaml'), db: join(mam, 'agent-sessions.db'), dispose };
}

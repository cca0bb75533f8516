// One faulted purge and its checks: the purge returns, everything of the conversation still on disk is reported
// (residual, or a refusal that removed nothing), nothing reported as purged is still there, and a rerun completes.
import { lstatSync } from 'node:fs';
import { sep } from 'node:path';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { PurgeResult } from '../../src/purge/purge-result.js';
import { type FaultErrno, RecordingFileSystem } from '../../src/testing/fs/recording-file-system.js';
import { type FaultStage, faultService } from './fault-stages.js';
import { strs } from './artifact-strings.js';

export const FAULT_CODES: readonly FaultErrno[] = ['EACCES', 'EBUSY', 'ENOSPC', 'EIO'];


/** What a clean purge of the stage did: its result and the mutations it made. */
export interface CleanRun {
  result: PurgeResult;
  /** Every path the clean purge reported removed that names a file (DB row entries excluded). */
  paths: string[];
  mutations: number;
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The file path a purged/residual entry names (`/x/state.db (messages.session_id: 3 rows)` → null: a row entry). */
export function entryPath(entry: string): string | null {
  return / \([^()]*: \d+ rows?\)$/.test(entry) ? null : entry.replace(/\/$/, '');
}

function covered(path: string, residual: readonly string[]): boolean {
  return residual.some((r) => {
    const p = r.replace(/ \(.*\)$/, '').replace(/\/$/, '');
    return p === path || path.startsWith(p + sep) || r.includes(path);
  });
}

// A rerun is not scoped to the workspace: after a partial purge the conversation's own record (what proves its
// workspace) may be gone, and a scoped purge then refuses the remains as `not-in-workspace` (removing nothing).
async function purge(stage: FaultStage, fs: RecordingFileSystem, scoped = true): Promise<PurgeResult> {
  return faultService(stage, fs).purge(stage.agent, stage.id, { home: stage.home, ...(scoped ? { workspace: stage.workspace } : {}), env: stage.env });
}

/** Restores the stage and purges it without faults. */
export async function cleanRun(stage: FaultStage): Promise<CleanRun> {
  stage.restore();
  const fs = new RecordingFileSystem(new NodeFileSystem());
  const result = await purge(stage, fs);
  const paths = result.kind === 'purged' ? strs(result.purged).map(entryPath).filter((p): p is string => p !== null) : [];
  return { result, paths, mutations: fs.mutations.length };
}

/** Restores the stage, purges it with the n-th mutation failing with `code`, then reruns; returns every broken promise. */
export async function faultedRun(stage: FaultStage, clean: CleanRun, n: number, code: FaultErrno): Promise<string[]> {
  stage.restore();
  const problems: string[] = [];
  const at = `${stage.agent} n=${n} ${code}`;
  const fs = new RecordingFileSystem(new NodeFileSystem(), { failAt: { n, code } });
  let result: PurgeResult;
  try {
    result = await purge(stage, fs);
  } catch (err) {
    return [`${at}: purge threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`];
  }
  const left = clean.paths.filter(exists);
  // Honest outcome: `purged` only when nothing is left (a fault that left something makes it partial or refused).
  if (result.kind === 'purged' && (left.length > 0 || result.residual.length > 0)) problems.push(`${at}: purged although ${left.length} path(s) and ${result.residual.length} residual item(s) are left`);
  if (result.kind === 'purged' || result.kind === 'partial') {
    for (const p of left) if (!covered(p, strs(result.residual))) problems.push(`${at}: ${p} is still on disk but not in residual`);
    for (const e of strs(result.purged)) {
      const p = entryPath(e);
      if (p !== null && exists(p)) problems.push(`${at}: ${p} reported purged but still on disk`);
    }
  } else if (left.length !== clean.paths.length) {
    problems.push(`${at}: ${result.kind} yet ${clean.paths.length - left.length} item(s) were removed`);
  }
  try {
    const rerun = await purge(stage, new RecordingFileSystem(new NodeFileSystem()), false);
    if (rerun.kind !== 'purged' || rerun.residual.length > 0) problems.push(`${at}: rerun did not complete: ${JSON.stringify(rerun)}`);
    for (const p of clean.paths) if (exists(p)) problems.push(`${at}: rerun left ${p}`);
  } catch (err) {
    problems.push(`${at}: rerun threw ${err instanceof Error ? err.message : String(err)}`);
  }
  return problems;
}

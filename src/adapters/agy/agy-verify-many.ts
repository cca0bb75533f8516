import type { FileSystemPort } from '../../ports/fs.js';
import { type BatchVerifyQuery, batchMemo } from '../common/batch-memo.js';
import { readAgyAcpCwd } from './agy-acp-meta.js';
import { type AgyCacheEntry, readAgyCache } from './agy-cache.js';
import { type AgyPaths, agyAcpDbPath, agyAcpMetaPath, agyDbPath } from './agy-paths.js';
import { type AgyConversation, agyIsSubagent } from './agy-survey.js';
import { readAgyTrajectory } from './agy-trajectory.js';
import { agyBelonging } from './agy-workspace.js';
import { type DirectoryMatcher, directoryMatcher, realpathMemo } from './same-directory.js';

/**
 * One canonical id of a batch and the workspace it is checked against.
 * @public
 */
export type AgyVerifyQuery = BatchVerifyQuery;

/**
 * What a check needs of one conversation: its CLI record and, only when that records no workspace (or there is no CLI
 * database), the ACP copy and its `.meta` cwd — the same fields `readAgyConversation` gives, without the activity stats a
 * check never looks at. Null when neither database opens with a schema. Never throws.
 */
async function readRecord(fs: FileSystemPort, p: AgyPaths, id: string): Promise<AgyConversation | null> {
  const cli = await readAgyTrajectory(fs, agyDbPath(p, id));
  // The CLI's own workspaces win over the ACP `.meta` (agyRecordedWorkspaces): the ACP side cannot change the answer, so
  // it is not looked at (`acp` false: not looked at; no check reads it, nor the activity).
  if (cli !== null && cli.workspaces.length > 0) return { id, cli, acp: false, acpCwd: null, activityMs: Number.NEGATIVE_INFINITY };
  const acpDb = await readAgyTrajectory(fs, agyAcpDbPath(p, id));
  if (cli === null && acpDb === null) return null;
  const acpCwd = acpDb === null ? null : await readAgyAcpCwd(fs, agyAcpMetaPath(p, id));
  return { id, cli, acp: acpDb !== null, acpCwd, activityMs: Number.NEGATIVE_INFINITY };
}

/**
 * agy's check of many canonical ids, in order: a conversation is verified when its database (the CLI's, else the ACP
 * server's) opens and neither its own record nor, when it records none, the last-conversation cache places it only in
 * other workspaces; `discover` mode also needs it placed in the query's workspace and not a subagent. Each conversation
 * is read once per call (every file checked regular first, databases opened read-only), the shared cache at most once,
 * each workspace resolved once. Never throws: an id whose check fails is false.
 * @public
 */
export async function agyVerifyMany(fs: FileSystemPort, p: AgyPaths, queries: readonly AgyVerifyQuery[], mode: 'verify' | 'discover'): Promise<boolean[]> {
  let cache: Promise<AgyCacheEntry[]> | undefined;
  const cacheOnce = (): Promise<AgyCacheEntry[]> => (cache ??= readAgyCache(fs, p.cacheFile));
  const record = batchMemo((id) => readRecord(fs, p, id));
  const real = realpathMemo(fs);
  const here = batchMemo((w): Promise<DirectoryMatcher> => directoryMatcher(fs, w, real));
  return Promise.all(
    queries.map(async (q) => {
      try {
        const c = await record(q.id);
        if (c === null) return false;
        // The cache speaks only for a conversation that records no workspace: read it only then.
        const recorded = c.cli !== null && c.cli.workspaces.length > 0;
        const belongs = await agyBelonging(c, recorded ? [] : await cacheOnce(), await here(q.workspace));
        if (belongs === 'elsewhere') return false;
        return mode === 'verify' || (belongs === 'here' && !agyIsSubagent(c));
      } catch {
        return false;
      }
    }),
  );
}

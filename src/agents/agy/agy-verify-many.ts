import type { FileSystemPort } from '../../ports/fs.js';
import { lstatOrNull } from '../../paths/lstat-or-null.js';
import { answerEachPairOnce, type BatchVerifyQuery, batchMemo } from '../common/batch-memo.js';
import { type FactClock, rememberedFact } from '../common/remembered-fact.js';
import { type DirLook, dirLookOf } from '../common/remembered-dir-fact.js';
import { readAgyAcpCwd } from './agy-acp-meta.js';
import { type AgyCacheEntry, readAgyCache } from './agy-cache.js';
import { type AgyPaths, agyAcpDbPath, agyAcpMetaPath, agyDbPath } from './agy-paths.js';
import { type AgyConversation, agyIsSubagent } from './agy-survey.js';
import { rememberedAgyTrajectory } from './agy-trajectory-memory.js';
import { agyBelonging } from './agy-workspace.js';
import { type DirectoryMatcher, directoryMatcher, realpathMemo } from '../common/same-directory.js';

/**
 * One canonical id of a batch and the workspace it is checked against.
 * @public
 */
export type AgyVerifyQuery = BatchVerifyQuery;

// What `read` says of the small file at `path` (a link, FIFO or directory is never opened: `read` checks), remembered
// under the file's lstat once settled (see rememberedFact); a look that fails other than by nothing there reads afresh.
async function rememberedSmall<T>(fs: FileSystemPort, fact: string, path: string, now: FactClock | undefined, read: () => Promise<T>): Promise<T> {
  if (now === undefined) return read();
  const st = await lstatOrNull(fs, path).catch(() => undefined);
  return st === undefined ? read() : rememberedFact(fs, `${fact}\0${path}`, [st], now, read);
}

/**
 * What a check needs of one conversation: its CLI record and, only when that records no workspace (or there is no CLI
 * database), the ACP copy and its `.meta` cwd — the same fields `readAgyConversation` gives, without the activity stats a
 * check never looks at; each remembered under its files' lstats with `now`. Null when neither database opens with a
 * schema. Never throws.
 */
async function readRecord(fs: FileSystemPort, p: AgyPaths, id: string, now: FactClock | undefined, look: DirLook): Promise<AgyConversation | null> {
  const cli = await rememberedAgyTrajectory(fs, agyDbPath(p, id), now, look);
  // The CLI's own workspaces win over the ACP `.meta` (agyRecordedWorkspaces): the ACP side cannot change the answer, so
  // it is not looked at (`acp` false: not looked at; no check reads it, nor the activity).
  if (cli !== null && cli.workspaces.length > 0) return { id, cli, acp: false, acpCwd: null, activityMs: Number.NEGATIVE_INFINITY };
  const acpDb = await rememberedAgyTrajectory(fs, agyAcpDbPath(p, id), now, look);
  if (cli === null && acpDb === null) return null;
  const meta = agyAcpMetaPath(p, id);
  const acpCwd = acpDb === null ? null : await rememberedSmall(fs, 'agy.acp-cwd', meta, now, () => readAgyAcpCwd(fs, meta));
  return { id, cli, acp: acpDb !== null, acpCwd, activityMs: Number.NEGATIVE_INFINITY };
}

/**
 * agy's check of many canonical ids, in order: a conversation is verified when its database (the CLI's, else the ACP
 * server's) opens and neither its own record nor, when it records none, the last-conversation cache places it only in
 * other workspaces; `discover` mode also needs it placed in the query's workspace and not a subagent. Each conversation
 * is read once per call (every file checked regular first, databases opened read-only), the shared cache at most once,
 * each workspace resolved once (while its conversations are read), a query repeated in the batch answered once. With
 * `now` (the ports' clock) what each database, `.meta` and the cache say is remembered for the port under their lstats
 * once settled, so a later call of unchanged files costs those lstats and no open or read. Never throws: an id whose
 * check fails is false.
 * @public
 */
export async function agyVerifyMany(fs: FileSystemPort, p: AgyPaths, queries: readonly AgyVerifyQuery[], mode: 'verify' | 'discover', now?: FactClock): Promise<boolean[]> {
  let cache: Promise<AgyCacheEntry[]> | undefined;
  const cacheOnce = (): Promise<AgyCacheEntry[]> => (cache ??= rememberedSmall(fs, 'agy.cache', p.cacheFile, now, () => readAgyCache(fs, p.cacheFile)));
  // Each conversations directory looked at once for the batch (its stamp vouches for the sidecars that are not there).
  const look = dirLookOf(fs);
  const record = batchMemo((id) => readRecord(fs, p, id, now, look));
  const real = realpathMemo(fs);
  const here = batchMemo((w): Promise<DirectoryMatcher> => directoryMatcher(fs, w, real));
  const answer = async (q: AgyVerifyQuery): Promise<boolean> => {
    try {
      const matcher = here(q.workspace);
      const c = await record(q.id);
      if (c === null) return false;
      // The cache speaks only for a conversation that records no workspace: read it only then.
      const recorded = c.cli !== null && c.cli.workspaces.length > 0;
      const belongs = await agyBelonging(c, recorded ? [] : await cacheOnce(), await matcher);
      if (belongs === 'elsewhere') return false;
      return mode === 'verify' || (belongs === 'here' && !agyIsSubagent(c));
    } catch {
      return false;
    }
  };
  return answerEachPairOnce(queries, answer);
}

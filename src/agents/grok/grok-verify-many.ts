import type { FileSystemPort } from '../../ports/fs.js';
import { answerEachPairOnce, type BatchVerifyQuery, batchMemo } from '../common/batch-memo.js';
import { type GrokClock, GrokPlainCwds } from './grok-plain-cwds.js';
import { type GrokBucketCwd, type GrokWorkspaceMatch, grokBucketCwds, grokWorkspaceBuckets, grokWorkspaceMatch } from './grok-workspace-buckets.js';
import { rememberedGrokSummary } from './grok-summary-memory.js';
import { grokSessionsIn } from './grok-workspace-sessions.js';

/**
 * One canonical id of a batch and the workspace it is checked against.
 * @public
 */
export type GrokVerifyQuery = BatchVerifyQuery;

/**
 * Grok's `verifyArtifact` (`verify` mode) for many ids, in order — the one rule of both: a visible session of the
 * workspace under the id, read from `<bucket>/<id>/summary.json` in each bucket whose cwd is the workspace. `sessions/`
 * is listed once for the batch (not once per id), each workspace's matching buckets found once, each `summary.json` read
 * once (and, with `now`, remembered under its `lstat` once settled: a later call of an unchanged one costs that `lstat`),
 * and a query repeated in the batch answered once. Never throws: an id whose check fails is false.
 * @public
 */
export async function grokVerifyMany(fs: FileSystemPort, sessionsDir: string, queries: readonly GrokVerifyQuery[], now?: GrokClock): Promise<boolean[]> {
  if (queries.length === 0) return [];
  let listing: Promise<GrokBucketCwd[]> | undefined;
  const buckets = (): Promise<GrokBucketCwd[]> => (listing ??= grokBucketCwds(fs, sessionsDir, now));
  const plain = new GrokPlainCwds(fs, now);
  const matchOf = batchMemo((w): Promise<GrokWorkspaceMatch> => grokWorkspaceMatch(fs, w, plain));
  const matchedOf = batchMemo(async (w): Promise<string[]> => grokWorkspaceBuckets(fs, await buckets(), await matchOf(w)));
  const summaryOf = batchMemo((dir) => rememberedGrokSummary(fs, dir, now));
  const answer = async (q: GrokVerifyQuery): Promise<boolean> => {
    try {
      const [match, matched] = await Promise.all([matchOf(q.workspace), matchedOf(q.workspace)]);
      return (await grokSessionsIn(fs, matched, match.here, q.id, summaryOf)).some((s) => !s.hidden);
    } catch {
      return false;
    }
  };
  return answerEachPairOnce(queries, answer);
}

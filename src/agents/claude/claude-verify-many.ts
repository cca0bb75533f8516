import { join, resolve } from 'node:path';
import type { FileSystemPort } from '../../ports/fs.js';
import { type BatchVerifyQuery, batchMemo } from '../common/batch-memo.js';
import { type FactClock, rememberedFact } from '../common/remembered-fact.js';
import type { ClaudeLocations } from './claude-locations.js';
import { readTranscriptHead } from './transcript-head.js';
import { storeConversations, unknownStores } from './unknown-stores.js';
import { claudeProjectKey } from './project-key.js';
import { claudeWorkspace, type ClaudeWorkspace, sameText } from './workspace-match.js';
import { canonicalClaudeId } from './claude-ids.js';

/**
 * One canonical id of a batch and the workspace it is checked against.
 * @public
 */
export type ClaudeVerifyQuery = BatchVerifyQuery;

/**
 * Claude's one verification (a single id is a batch of one; `discover` mode adds only the caller's sibling check), for
 * many ids, in order: the transcript `<key>/<id>.jsonl` of the workspace's key dirs by one `lstat` and its head up to the first recorded cwd (the key is lossy:
 * `/a/b-c` and `/a/b/c` share one, so only the record tells; no start is needed, so no more is read and nothing is stat'ed),
 * else what an unknown store records for the workspace — each workspace resolved, each transcript looked at and its head
 * read, and the unknown stores listed and read, once for the batch (not once per id). A transcript in the key dir of the
 * workspace as given whose first cwd is that path as written (or that records none) answers before the workspace is
 * resolved: it is one the full rule accepts under that key too. With `now` (the ports' clock) a transcript's first cwd
 * is remembered for the port under its `lstat` once settled, so a later call of an unchanged transcript costs that one
 * `lstat` (which is also its regular-file check). Never throws: an id whose check fails is false.
 * @public
 */
export async function claudeVerifyMany(fs: FileSystemPort, loc: ClaudeLocations, queries: readonly ClaudeVerifyQuery[], now?: FactClock): Promise<boolean[]> {
  let dbs: Promise<string[]> | undefined;
  const stores = (): Promise<string[]> => (dbs ??= unknownStores(fs, loc.config));
  const wsOf = batchMemo((w) => claudeWorkspace(fs, w));
  const statOf = batchMemo((path) => fs.lstat(path).catch(() => null));
  // The first recorded cwd of a regular transcript (null: none recorded), remembered under the lstat taken before the
  // read; a transcript that cannot be read rejects.
  const cwdOf = batchMemo(async (path) => {
    const st = await statOf(path);
    return rememberedFact(fs, `claude.head-cwd\0${path}`, [st], now, async () => (await readTranscriptHead(fs, path, true)).cwd);
  });
  // The transcript at `path` is a regular file whose first cwd `accepts`. One recording no cwd (the CLI killed before its
  // first turn) is no workspace's: its key dir is shared by every path that maps to the same key (`/r/a.b`, `/r/a-b`).
  const accepted = async (path: string, accepts: (cwd: string) => boolean | Promise<boolean>): Promise<boolean> => {
    if ((await statOf(path))?.kind !== 'file') return false;
    const cwd = await cwdOf(path).catch(() => undefined);
    return typeof cwd === 'string' && (await accepts(cwd));
  };
  const storedIds = batchMemo(async (w): Promise<Set<string>> => {
    const ws: ClaudeWorkspace = await wsOf(w);
    const found = await stores();
    if (found.length === 0) return new Set();
    const ids = (await storeConversations(fs, found, [...new Set([ws.real, ws.given])])).map((c) => canonicalClaudeId(c.id));
    return new Set(ids.filter((i): i is string => i !== null));
  });
  return Promise.all(
    queries.map(async (q) => {
      try {
        // The given path's own key (one of the workspace's keys) with its cwd as written: no realpath needed.
        const given = resolve(q.workspace);
        if (await accepted(join(loc.discoverProjects, claudeProjectKey(given), `${q.id}.jsonl`), (cwd) => sameText(cwd, given))) return true;
        const ws = await wsOf(q.workspace);
        for (const key of ws.keys) {
          // A transcript naming another directory, or none, is not this workspace's.
          if (await accepted(join(loc.discoverProjects, key, `${q.id}.jsonl`), (cwd) => ws.matches(cwd))) return true;
        }
        return (await storedIds(q.workspace)).has(q.id);
      } catch {
        return false;
      }
    }),
  );
}

import { join } from 'node:path';
import { normalizeAgentId } from '../../ids/agent-id.js';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ClaudeLocations } from './claude-locations.js';
import { workspaceTranscript } from './transcript-scan.js';
import { storeConversations, unknownStores } from './unknown-stores.js';
import { claudeWorkspace, type ClaudeWorkspace } from './workspace-match.js';

/**
 * One canonical id of a Claude batch and the workspace it is checked against ({@link claudeVerifyMany}).
 * @public
 */
export interface ClaudeVerifyQuery {
  /** The canonical session id. */
  id: string;
  /** The workspace of the query. */
  workspace: string;
}

// A promise per key, made once for the batch.
function memo<T>(make: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const seen = new Map<string, Promise<T>>();
  return (key) => {
    let p = seen.get(key);
    if (p === undefined) {
      p = make(key);
      p.catch(() => undefined);
      seen.set(key, p);
    }
    return p;
  };
}

/**
 * Claude's `verifyArtifact` (`verify` mode) for many ids, in order, answering as it does per id: the transcript
 * `<key>/<id>.jsonl` of the workspace's key dirs by one `lstat` and its head, else what an unknown store records for the
 * workspace — each workspace resolved, and the unknown stores listed and read, once for the batch (not once per id).
 * Never throws: an id whose check fails is false.
 * @public
 */
export async function claudeVerifyMany(fs: FileSystemPort, loc: ClaudeLocations, queries: readonly ClaudeVerifyQuery[]): Promise<boolean[]> {
  let dbs: Promise<string[]> | undefined;
  const stores = (): Promise<string[]> => (dbs ??= unknownStores(fs, loc.config));
  const wsOf = memo((w) => claudeWorkspace(fs, w));
  const storedIds = memo(async (w): Promise<Set<string>> => {
    const ws: ClaudeWorkspace = await wsOf(w);
    const found = await stores();
    if (found.length === 0) return new Set();
    const ids = (await storeConversations(fs, found, [...new Set([ws.real, ws.given])])).map((c) => normalizeAgentId('claude', c.id));
    return new Set(ids.filter((i): i is string => i !== null));
  });
  return Promise.all(
    queries.map(async (q) => {
      try {
        const ws = await wsOf(q.workspace);
        for (const key of ws.keys) {
          const path = join(loc.discoverProjects, key, `${q.id}.jsonl`);
          if ((await fs.lstat(path).then((s) => s.kind, () => null)) !== 'file') continue;
          if ((await workspaceTranscript(fs, ws, q.id, path)) !== null) return true;
        }
        return (await storedIds(q.workspace)).has(q.id);
      } catch {
        return false;
      }
    }),
  );
}

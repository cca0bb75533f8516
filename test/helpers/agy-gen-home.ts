// Generated agy homes for the verify laws (CLI databases recording one, two, a linked or no workspace, databases without
// the record, garbage in a database's place, ACP copies with or without a `.meta` cwd, subagents, cache hints), and the
// per-id rule as it stood before the batch (the whole conversation read: both databases, the `.meta`, the activity
// stats; the cache always read) as the reference the batch must answer like.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readAgyCache } from '../../src/agents/agy/agy-cache.js';
import { type AgyPaths, agyPaths } from '../../src/agents/agy/agy-paths.js';
import { agyIsSubagent, readAgyConversation } from '../../src/agents/agy/agy-survey.js';
import { agyBelonging } from '../../src/agents/agy/agy-workspace.js';
import { directoryMatcher } from '../../src/agents/common/same-directory.js';
import { normalizeAgentId } from '../../src/ids/agent-id.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { agyCliRoot, writeAgyAcp, writeAgyRealDb } from './adapter-agy-real-files.js';
import { writeAgyDb } from './adapter-agy-files.js';

/** One generated conversation. */
export interface GenAgyConversation {
  /** The CLI database: recording wsA, wsB, both, the link to wsA, a record naming none, no record row, garbage, or absent. */
  cli: 'a' | 'b' | 'both' | 'link' | 'empty' | 'norecord' | 'garbage' | 'none';
  /** The ACP copy: absent, with a `.meta` cwd of wsA or wsB, or without a `.meta`. */
  acp: 'none' | 'a' | 'b' | 'nometa';
  /** What the last-conversation cache maps to it (keyed by wsA, wsB or the link's path). */
  cache: 'none' | 'a' | 'b' | 'link';
  /** A subagent (its record names the first conversation as parent). */
  sub: boolean;
}

/** A generated home: its context parts, workspaces and ids. */
export interface GenAgyHome {
  home: string;
  paths: AgyPaths;
  wsA: string;
  wsB: string;
  /** A symbolic link to wsA. */
  link: string;
  ids: string[];
}

/** A uuid of the `n`th generated conversation (deterministic). */
export function genAgyId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

/** Writes the home under `dir` (an empty real dir). */
export function buildAgyGenHome(dir: string, convs: readonly GenAgyConversation[]): GenAgyHome {
  const home = join(dir, 'home');
  const wsA = join(dir, 'ws-a');
  const wsB = join(dir, 'ws-b');
  const link = join(dir, 'ws-link');
  for (const d of [home, wsA, wsB]) mkdirSync(d, { recursive: true });
  symlinkSync(wsA, link);
  const gemini = join(home, '.gemini');
  const ws = { a: wsA, b: wsB, link } as const;
  const ids = convs.map((_, i) => genAgyId(i + 1));
  const cache: Record<string, string> = {};
  convs.forEach((c, i) => {
    const id = ids[i] as string;
    const parent = c.sub ? { parent: ids[0] as string, depth: 1 } : {};
    const db = join(agyCliRoot(gemini), 'conversations', `${id}.db`);
    switch (c.cli) {
      case 'a':
      case 'b':
      case 'link':
        writeAgyRealDb(gemini, id, { workspaces: [ws[c.cli]], ...parent });
        break;
      case 'both':
        writeAgyRealDb(gemini, id, { workspaces: [wsA, wsB], ...parent });
        break;
      case 'empty':
        writeAgyRealDb(gemini, id, { workspaces: [], ...parent });
        break;
      case 'norecord':
        writeAgyDb(db);
        break;
      case 'garbage':
        mkdirSync(join(db, '..'), { recursive: true });
        writeFileSync(db, 'not a database at all, but long enough');
        break;
      case 'none':
        break;
      default:
        throw new Error(c.cli satisfies never);
    }
    if (c.acp !== 'none') writeAgyAcp(gemini, id, c.acp === 'nometa' ? null : ws[c.acp]);
    if (c.cache !== 'none') cache[ws[c.cache]] = id;
  });
  mkdirSync(join(agyCliRoot(gemini), 'cache'), { recursive: true });
  writeFileSync(join(agyCliRoot(gemini), 'cache', 'last_conversations.json'), JSON.stringify(cache));
  return { home, paths: agyPaths(home, {}), wsA, wsB, link, ids };
}

/** The per-id rule before the batch: the whole conversation read, the cache always read, the workspace resolved per call. */
export async function agyVerifyReference(fs: FileSystemPort, p: AgyPaths, id: string, workspace: string, mode: 'verify' | 'discover'): Promise<boolean> {
  const c = normalizeAgentId('agy', id);
  if (c === null) return false;
  try {
    const conv = await readAgyConversation(fs, p, c);
    if (conv === null) return false;
    const belongs = await agyBelonging(conv, await readAgyCache(fs, p.cacheFile), await directoryMatcher(fs, workspace));
    if (belongs === 'elsewhere') return false;
    return mode === 'verify' || (belongs === 'here' && !agyIsSubagent(conv));
  } catch {
    return false;
  }
}

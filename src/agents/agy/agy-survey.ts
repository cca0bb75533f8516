import type { FileSystemPort } from '../../ports/fs.js';
import { canonicalAgyId } from './agy-ids.js';
import { readAgyAcpCwd } from './agy-acp-meta.js';
import { agyActivityMs } from './agy-conversation-db.js';
import { type AgyPaths, agyAcpDbPath, agyAcpMetaPath, agyDbPath } from './agy-paths.js';
import { type AgyTrajectory, readAgyTrajectory } from './agy-trajectory.js';

/**
 * One conversation as its own files tell it: the CLI database's record, or the ACP copy's `.meta` cwd, and its last
 * activity.
 * @public
 */
export interface AgyConversation {
  /** The canonical id. */
  id: string;
  /** The CLI database's record, or null when there is no readable CLI database. */
  cli: AgyTrajectory | null;
  /** True when the ACP server's copy opens as a database. */
  acp: boolean;
  /** The ACP `.meta` cwd, or null. */
  acpCwd: string | null;
  /** The newest mtime of its database(s) and `-wal`, epoch ms (-Infinity when unknown). */
  activityMs: number;
}

/**
 * True when the conversation is a subagent's (its record names a parent or a nesting depth of at least 1).
 * @public
 */
export function agyIsSubagent(c: AgyConversation): boolean {
  return c.cli !== null && (c.cli.parent !== null || c.cli.depth >= 1);
}

/**
 * The workspaces the conversation's own files record: the CLI database's workspaces, else the ACP `.meta` cwd; empty
 * when neither records one.
 * @public
 */
export function agyRecordedWorkspaces(c: AgyConversation): string[] {
  if (c.cli !== null && c.cli.workspaces.length > 0) return c.cli.workspaces;
  return c.acpCwd === null ? [] : [c.acpCwd];
}

/**
 * Reads one conversation (read-only, every file checked regular first); null when neither the CLI nor the ACP
 * database opens with a schema. Never throws.
 * @public
 */
export async function readAgyConversation(fs: FileSystemPort, p: AgyPaths, id: string): Promise<AgyConversation | null> {
  const [cli, acpDb] = await Promise.all([readAgyTrajectory(fs, agyDbPath(p, id)), readAgyTrajectory(fs, agyAcpDbPath(p, id))]);
  if (cli === null && acpDb === null) return null;
  const acpCwd = acpDb === null ? null : await readAgyAcpCwd(fs, agyAcpMetaPath(p, id));
  const times = await Promise.all([agyActivityMs(fs, agyDbPath(p, id)), agyActivityMs(fs, agyAcpDbPath(p, id))]);
  const known = times.filter((t): t is number => t !== null);
  return { id, cli, acp: acpDb !== null, acpCwd, activityMs: known.length === 0 ? Number.NEGATIVE_INFINITY : Math.max(...known) };
}

// The canonical ids named `<uuid>.db` in a directory (another spelling of a uuid is not this CLI's file name).
async function dbIds(fs: FileSystemPort, dir: string): Promise<string[]> {
  try {
    const out: string[] = [];
    for (const e of await fs.readdir(dir)) {
      if (!e.name.endsWith('.db')) continue;
      const stem = e.name.slice(0, -3);
      if (canonicalAgyId(stem) === stem) out.push(stem);
    }
    return out;
  } catch {
    return [];
  }
}

/**
 * Every conversation of a home whose database opens (the CLI's `conversations/` and the ACP server's), plus the extra
 * ids given (the cache's hints) when they have one. Never throws.
 * @public
 */
export async function surveyAgy(fs: FileSystemPort, p: AgyPaths, extra: readonly string[] = []): Promise<AgyConversation[]> {
  const ids = new Set([...(await dbIds(fs, p.conversations)), ...(await dbIds(fs, p.acpConversations)), ...extra]);
  const out: AgyConversation[] = [];
  for (const id of [...ids].sort()) {
    const c = await readAgyConversation(fs, p, id);
    if (c !== null) out.push(c);
  }
  return out;
}

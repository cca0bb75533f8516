import { isAbsolute, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FileStat, FileSystemPort } from '../../ports/fs.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { tableNames } from '../../sqlite/schema.js';
import { canonicalAgyId } from './agy-ids.js';
import { protoMessages, protoStrings, protoVarint, readProtoFields } from './protobuf-wire.js';

/**
 * What a conversation database records about itself (`trajectory_metadata_blob` row `main`, a
 * `CortexTrajectoryMetadata`): the workspaces (field 1 → sub-field 1 and field 7, `file://` URIs, as absolute paths),
 * the parent conversation of a subagent (field 5) and its nesting depth (field 17). `recorded` is false when the
 * database has no such row (a headless run, an ACP copy, an older CLI) or it does not decode: no workspace evidence.
 * @public
 */
export interface AgyTrajectory {
  /** True when the database holds a decodable `main` record. */
  recorded: boolean;
  /** The workspace directories it records, without duplicates (empty: none recorded). */
  workspaces: string[];
  /** The canonical id of the parent conversation (a subagent), or null. */
  parent: string | null;
  /** The nesting depth (0 for a top-level conversation). */
  depth: number;
}

/** The answer for a database that opens with a schema but records nothing. */
const NOTHING: AgyTrajectory = { recorded: false, workspaces: [], parent: null, depth: 0 };

/** Larger than any real metadata record; a bigger one is not decoded. */
const MAX_BLOB_BYTES = 4 * 1024 * 1024;

/**
 * The absolute directory a `file://` URI names, or null for another scheme, a remote host, a relative or NUL-bearing path.
 * @public
 */
export function agyUriPath(uri: string): string | null {
  if (!/^file:\/\//i.test(uri)) return null;
  try {
    const p = fileURLToPath(uri);
    if (!isAbsolute(p) || p.includes('\0')) return null;
    return normalize(p).replace(/(.)\/+$/, '$1');
  } catch {
    return null;
  }
}

/**
 * Decodes a `CortexTrajectoryMetadata` blob; malformed bytes record nothing. Never throws.
 * @public
 */
export function decodeAgyTrajectory(blob: Uint8Array): AgyTrajectory {
  const fields = readProtoFields(blob);
  if (fields === null) return NOTHING;
  const uris = [...protoMessages(fields, 1).flatMap((w) => protoStrings(w, 1)), ...protoStrings(fields, 7)];
  const workspaces = [...new Set(uris.map(agyUriPath).filter((p): p is string => p !== null))];
  const parent = protoStrings(fields, 5).map((s) => canonicalAgyId(s)).find((s) => s !== null) ?? null;
  const depth = protoVarint(fields, 17);
  return { recorded: true, workspaces, parent, depth: depth === null || depth > 1000n ? (parent === null ? 0 : 1) : Number(depth) };
}

/**
 * Reads the conversation's own record, read-only (sidecars included, its directory left as found). Null when the path is
 * not a regular SQLite file or does not open as a database with a schema (not a conversation); a database without the record
 * gives `recorded: false`; `seen` is an `lstat` of the path the caller has just taken (null: nothing there), used as the
 * regular-file check instead of another. Never throws.
 * @public
 */
export async function readAgyTrajectory(fs: FileSystemPort, dbPath: string, seen?: FileStat | null): Promise<AgyTrajectory | null> {
  try {
    // The opener refuses what is not a regular file (and a file that is not SQLite where sidecars would be read); the
    // path itself must be the file, never a link to one: the looks it took say so (another look only after a retry).
    if (seen !== undefined && seen?.kind !== 'file') return null;
    return await withReadonlyDb(dbPath, { fs, requireFile: true }, async (h) => {
      if ((h.stats?.file ?? (await fs.lstat(dbPath))).kind !== 'file') return null;
      const tables = tableNames(h.db);
      if (tables.length === 0) return null;
      if (!tables.includes('trajectory_metadata_blob')) return NOTHING;
      let data: unknown;
      try {
        data = (h.db.prepare("SELECT data FROM trajectory_metadata_blob WHERE id = 'main'").get() as { data?: unknown } | undefined)?.data;
      } catch {
        return NOTHING;
      }
      if (!(data instanceof Uint8Array) || data.byteLength > MAX_BLOB_BYTES) return NOTHING;
      return decodeAgyTrajectory(data);
    });
  } catch {
    return null;
  }
}

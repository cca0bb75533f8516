import type { FileSystemPort } from '../../ports/fs.js';
import { normalizeAgentId } from '../../ids/agent-id.js';
import { withReadonlyDb } from '../../sqlite/open-readonly.js';
import { quoteIdent } from '../../sqlite/schema.js';
import { hermesSessionColumns } from './hermes-layout.js';

/**
 * One row of Hermes's `sessions` table with a plausible (canonical) id.
 * @public
 */
export interface HermesSession {
  id: string;
  cwd: string;
  /** `started_at`, epoch seconds, or null when absent or not a finite number. */
  startedAt: number | null;
}

function seconds(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/**
 * The sessions recorded in `state.db` (only the one id when `onlyId` is given), read through the read-only opener; a
 * missing or unreadable database, or one without `sessions(id, cwd)`, gives none. Never throws.
 * @public
 */
export async function readHermesSessions(fs: FileSystemPort, dbPath: string, onlyId?: string): Promise<HermesSession[]> {
  try {
    await fs.stat(dbPath);
    return await withReadonlyDb(dbPath, { fs }, (h) => {
      const cols = hermesSessionColumns(h.db);
      if (cols === null) return [];
      const started = cols.startedAt === undefined ? 'NULL' : quoteIdent(cols.startedAt);
      const sql = `SELECT ${quoteIdent(cols.id)} AS id, ${quoteIdent(cols.cwd)} AS cwd, ${started} AS started FROM ${quoteIdent(cols.table)}`;
      const rows = (onlyId === undefined
        ? h.db.prepare(sql).all()
        : h.db.prepare(`${sql} WHERE lower(${quoteIdent(cols.id)}) = ?`).all(onlyId)) as Array<{ id: unknown; cwd: unknown; started: unknown }>;
      const out: HermesSession[] = [];
      for (const r of rows) {
        const id = normalizeAgentId('hermes', r.id);
        if (id !== null && typeof r.cwd === 'string') out.push({ id, cwd: r.cwd, startedAt: seconds(r.started) });
      }
      return out;
    });
  } catch {
    return [];
  }
}

// Real-layout agy conversations for unit tests: real-schema databases recording their workspace (and parent), ACP copies
// with their `.meta`, and the shared summaries index.
import Database from 'better-sqlite3';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agyConversationSql, trajectoryBlob } from './adapter-agy-proto.js';

/** The CLI root under a GEMINI_HOME. */
export function agyCliRoot(gemini: string): string {
  return join(gemini, 'antigravity-cli');
}

function writeDb(path: string, sql: readonly string[], mtimeMs?: number): void {
  mkdirSync(join(path, '..'), { recursive: true });
  const conn = new Database(path);
  try {
    for (const s of sql) conn.exec(s);
  } finally {
    conn.close();
  }
  if (mtimeMs !== undefined) utimesSync(path, mtimeMs / 1000, mtimeMs / 1000);
}

/** A CLI conversation database recording `workspaces` (and a parent / depth for a subagent); returns its path. */
export function writeAgyRealDb(gemini: string, id: string, o: { workspaces?: string[]; parent?: string; depth?: number; mtimeMs?: number } = {}): string {
  const db = join(agyCliRoot(gemini), 'conversations', `${id}.db`);
  writeDb(db, agyConversationSql(id, trajectoryBlob(o)), o.mtimeMs);
  return db;
}

/** An ACP server copy (empty metadata record, as the ACP server writes) and its `.meta` with `cwd`; returns both paths. */
export function writeAgyAcp(gemini: string, id: string, cwd: string | null): { db: string; meta: string } {
  const dir = join(gemini, 'antigravity-acp', 'conversations');
  const db = join(dir, `${id}.db`);
  writeDb(db, agyConversationSql(id, new Uint8Array()));
  const meta = join(dir, `${id}.meta`);
  if (cwd !== null) writeFileSync(meta, `{\n  "cwd": ${JSON.stringify(cwd)}\n}`);
  return { db, meta };
}

/** The shared `conversation_summaries.db` with one row per id; returns its path. */
export function writeAgySummaries(gemini: string, ids: readonly string[]): string {
  const db = join(agyCliRoot(gemini), 'conversation_summaries.db');
  writeDb(db, [
    "CREATE TABLE `conversation_summaries` (`conversation_id` text,`title` text NOT NULL DEFAULT \"\",`workspace_uris` text NOT NULL,`parent_conversation_id` text NOT NULL DEFAULT \"\",PRIMARY KEY (`conversation_id`))",
    ...ids.map((id) => `INSERT INTO conversation_summaries (conversation_id, workspace_uris) VALUES ('${id}', '[]')`),
  ]);
  return db;
}

/** Writes a file under the CLI root (parents created); returns its path. */
export function writeAgyFile(gemini: string, rel: string, body = 'x'): string {
  const path = join(agyCliRoot(gemini), rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, body);
  return path;
}

import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { OpencodeLayoutCache, isKnownLayout } from '../../../src/agents/opencode/opencode-layout.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dbWith(path: string, sql: string): void {
  const db = new Database(path);
  db.exec(sql);
  db.close();
}

function layoutAt(cache: OpencodeLayoutCache, path: string): ReturnType<OpencodeLayoutCache['layoutOf']> {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return cache.layoutOf(db, path);
  } finally {
    db.close();
  }
}

describe('OpencodeLayoutCache', () => {
  it('reads a different database copied to the same path afresh, though its schema counter is the same', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mam-oc-layout-'));
    dirs.push(dir);
    const known = join(dir, 'known.db');
    const unknown = join(dir, 'unknown.db');
    const live = join(dir, 'opencode.db');
    dbWith(known, 'CREATE TABLE session (id TEXT PRIMARY KEY, directory TEXT, time_created INTEGER)');
    dbWith(unknown, 'CREATE TABLE conversations (id TEXT PRIMARY KEY, cwd TEXT, created INTEGER)');
    const version = (p: string): number => {
      const db = new Database(p, { readonly: true });
      try {
        return db.pragma('schema_version', { simple: true }) as number;
      } finally {
        db.close();
      }
    };
    expect(version(known)).toBe(version(unknown));
    const cache = new OpencodeLayoutCache();
    copyFileSync(known, live);
    expect(isKnownLayout(layoutAt(cache, live))).toBe(true);
    copyFileSync(unknown, live);
    expect(isKnownLayout(layoutAt(cache, live))).toBe(false);
    copyFileSync(known, live);
    expect(layoutAt(cache, live).v1?.table).toBe('session');
  });
});

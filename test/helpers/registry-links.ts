// Hostile files at the registry's names (issue 31): a symlink (absolute or relative), a hard link, a directory, a FIFO or
// a foreign SQLite database where the registry's own file belongs, and the victims outside `.mam/` they point at.
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { enableSqliteUri } from '../../src/node/sqlite-uri.js';

/** Every name the registry writes or opens for writing, relative to `.mam/` (`.` is `.mam/` itself). */
export const REGISTRY_NAMES = [
  '.',
  'agent-sessions.yaml',
  'agent-sessions.lock',
  'agent-sessions.lock-journal',
  'agent-sessions.db',
  'agent-sessions.db-journal',
  'agent-sessions.db-wal',
  'agent-sessions.db-shm',
] as const;

/** One registry name. */
export type RegistryName = (typeof REGISTRY_NAMES)[number];

/** What is placed at a name instead of the registry's own file. */
export const HOSTILE_KINDS = ['symlink-abs', 'symlink-rel', 'hard-link', 'directory', 'fifo', 'foreign-db'] as const;

/** One hostile kind. */
export type HostileKind = (typeof HOSTILE_KINDS)[number];

/** Whether `kind` can be placed at `name` (`.mam/` itself cannot be hard-linked). */
export function placeable(name: RegistryName, kind: HostileKind): boolean {
  return !(name === '.' && kind === 'hard-link');
}

/** Another application's database: a `sessions` table of its own with three rows. */
export function makeForeignDb(path: string): void {
  enableSqliteUri();
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.exec("CREATE TABLE sessions (id TEXT PRIMARY KEY, title TEXT, body TEXT); INSERT INTO sessions VALUES ('s1', 'one', 'x'), ('s2', 'two', 'y'), ('s3', 'three', 'z')");
  db.close();
}

/** The rows of the foreign database's `sessions` table, read-only. */
export function foreignRows(path: string): number {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT count(*) FROM sessions').pluck().get() as number;
  } finally {
    db.close();
  }
}

/** A digest of every file under `dir` (names, kinds, bytes; links as their target text), to prove nothing changed. */
export function treeDigest(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      h.update(`${relative(dir, p)}\0${st.isSymbolicLink() ? 'l' : st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o'}\0`);
      if (st.isSymbolicLink()) continue;
      if (st.isDirectory()) walk(p);
      else if (st.isFile()) h.update(readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

/** Where the victims live (outside the workspace): a foreign database, and a directory standing for another `.mam/`. */
export interface Victims {
  /** The directory holding every victim. */
  dir: string;
  /** Another application's database with a `sessions` table. */
  db: string;
  /** A directory a linked `.mam/` points at (it holds a foreign database named like the mirror). */
  mam: string;
}

/** Makes the victims under `dir`. */
export function makeVictims(dir: string): Victims {
  const db = join(dir, 'other-app', 'data.db');
  makeForeignDb(db);
  const mam = join(dir, 'other-mam');
  makeForeignDb(join(mam, 'agent-sessions.db'));
  return { dir, db, mam };
}

/** Replaces the registry name `name` in `mam` by `kind` (what was there goes); the victims are what links point at. */
export function placeHostile(mam: string, name: RegistryName, kind: HostileKind, victims: Victims): string {
  const path = name === '.' ? mam : join(mam, name);
  if (name === '.') {
    // `.mam/` itself: moved aside (not lost), so the workspace keeps its registry for the check afterwards.
    if (existsSync(path)) rmSync(path, { recursive: true, force: true });
  } else if (existsSync(path) || isLink(path)) {
    rmSync(path, { recursive: true, force: true });
  }
  const target = name === '.' ? victims.mam : victims.db;
  switch (kind) {
    case 'symlink-abs':
      symlinkSync(target, path);
      break;
    case 'symlink-rel':
      symlinkSync(relative(dirname(path), target), path);
      break;
    case 'hard-link':
      linkSync(target, path);
      break;
    case 'directory':
      mkdirSync(path);
      writeFileSync(join(path, 'keep'), 'inside');
      break;
    case 'fifo':
      if (spawnSync('mkfifo', [path]).status !== 0) throw new Error(`mkfifo ${path} failed`);
      break;
    case 'foreign-db':
      // A copy of the victim's bytes: a database of its own (one link), not the victim itself.
      writeFileSync(path, readFileSync(victims.db));
      break;
    default: {
      const never: never = kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
  return path;
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

// Test helpers for the agy / hermes / grok adapters: agy conversation trees (as the seeds lay them out), a spying
// filesystem port, tree hashes, and ports over a fake process table.
import Database from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import { lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolvePorts } from '../../src/node/node-ports.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { FileSystemPort, Ports, ProcessPort } from '../../src/ports/index.js';

/** The agy root under a home. */
export function agyRootOf(home: string): string {
  return join(home, '.gemini', 'antigravity-cli');
}

/** The six artifacts of one agy conversation. */
export interface AgyTree {
  db: string;
  wal: string;
  shm: string;
  brain: string;
  annotation: string;
  lock: string;
}

/** The paths of a conversation's artifacts (nothing created). */
export function agyTreePaths(home: string, id: string): AgyTree {
  const root = agyRootOf(home);
  const db = join(root, 'conversations', `${id}.db`);
  return {
    db,
    wal: `${db}-wal`,
    shm: `${db}-shm`,
    brain: join(root, 'brain', id),
    annotation: join(root, 'annotations', `${id}.pbtxt`),
    lock: join(root, 'presence', `${id}.lock`),
  };
}

/** A real conversation database (`steps` table, one row, rollback journal: no sidecars) as the seeds make it. */
export function writeAgyDb(db: string, mtimeMs?: number): void {
  mkdirSync(join(db, '..'), { recursive: true });
  const conn = new Database(db);
  conn.exec('CREATE TABLE steps (id INTEGER); INSERT INTO steps VALUES (1)');
  conn.close();
  if (mtimeMs !== undefined) utimesSync(db, mtimeMs / 1000, mtimeMs / 1000);
}

/** The seed's `_agy_tree`: a real db, garbage `-wal`/`-shm`, a brain dir with a note, an annotation and an empty lock. */
export function agyTree(home: string, id: string, parts: ReadonlyArray<keyof AgyTree> = ['db', 'wal', 'shm', 'brain', 'annotation', 'lock'], mtimeMs?: number): AgyTree {
  const paths = agyTreePaths(home, id);
  for (const part of parts) {
    const p = paths[part];
    if (part === 'db') writeAgyDb(p, mtimeMs);
    else if (part === 'brain') {
      mkdirSync(p, { recursive: true });
      writeFileSync(join(p, 'note.txt'), 'brain');
    } else {
      mkdirSync(join(p, '..'), { recursive: true });
      writeFileSync(p, part === 'lock' ? '' : 'x');
    }
  }
  return paths;
}

/** Writes agy's `cache/last_conversations.json`. */
export function writeAgyCache(home: string, mapping: Record<string, string>): string {
  const file = join(agyRootOf(home), 'cache', 'last_conversations.json');
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, JSON.stringify(mapping));
  return file;
}

/** A uuid no process on this host can already be naming. */
export function freshId(): string {
  return randomUUID();
}

/** Every file, dir and link under `dir` (links not followed) with a content hash, keyed by relative path. */
export function hashTree(dir: string, skip: (rel: string) => boolean = () => false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) out[rel] = `link:${readlinkSync(p)}`;
      else if (st.isDirectory()) {
        out[rel] = 'dir';
        walk(p);
      } else out[rel] = `${st.size}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`;
    }
  };
  walk(dir);
  return out;
}

/** A filesystem port that records the path of every call (reads included) before passing it on. */
export class SpyFileSystem {
  readonly calls: Array<{ op: string; path: string }> = [];
  readonly port: FileSystemPort;

  constructor(inner: FileSystemPort = new NodeFileSystem()) {
    this.port = new Proxy(inner, {
      get: (target, prop, receiver) => {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (typeof args[0] === 'string') this.calls.push({ op: String(prop), path: args[0] });
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  }
}

/** Real ports, with the given process port (a fake table) and filesystem. */
export function portsWith(proc: ProcessPort, fs: FileSystemPort = new NodeFileSystem()): Ports {
  return resolvePorts({ fs, proc });
}

// Before/after evidence for purge tests: a hash of every file under a dir, and every row of every table of a database.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Relative path → sha256 (or `link:<target>`, `dir`) for everything under `dir`, links not followed. */
export function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const st = lstatSync(p);
      const rel = relative(dir, p);
      if (st.isSymbolicLink()) out.set(rel, `link:${readlinkSync(p)}`);
      else if (st.isDirectory()) {
        out.set(`${rel}/`, 'dir');
        walk(p);
      } else out.set(rel, createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** Every row of every table as `<table> <json>` (sorted), read from a private copy-free read-only open. */
export function dumpRows(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
    const out: string[] = [];
    for (const t of tables) {
      for (const row of db.prepare(`SELECT * FROM "${t.replaceAll('"', '""')}"`).all()) out.push(`${t} ${JSON.stringify(row)}`);
    }
    return out.sort();
  } finally {
    db.close();
  }
}

/** True when a dumped row names the id in one of its columns exactly. */
export function rowNames(line: string, id: string): boolean {
  const json = JSON.parse(line.slice(line.indexOf(' ') + 1)) as Record<string, unknown>;
  return Object.values(json).some((v) => v === id);
}

// Interruptions of a purge at each of its steps, in process: a FileSystemPort that fails the n-th call touching a
// database's files (the write guard's look before each write step, the searches of the bytes), so the purge stops
// there; a second connection held open meanwhile keeps the closes from checkpointing, as a killed process would leave it.
// Then a rerun on the plain port must finish the job; a byte search of the whole home tells what stays.
import Database from 'better-sqlite3';
import { readdirSync, readFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import type { PurgeResult } from '../../src/purge/purge-result.js';
import type { AgentName } from '../../src/ids/agent-names.js';
import { artifactPath } from '../../src/purge/artifact.js';
import { FakeProcessTable } from '../../src/testing/process/index.js';

/** A port that fails the `at`-th call (1-based) naming one of `dbs` or its sidecars; `fired` says whether it did. */
export interface InterruptingFs {
  fs: FileSystemPort;
  fired: () => boolean;
  calls: () => number;
}

/** Fails the `at`-th call on the databases' files (0: never, counting only); with `method`, only calls of that method count. */
export function interruptingFs(dbs: readonly string[], at: number, method?: keyof FileSystemPort): InterruptingFs {
  const real = new NodeFileSystem();
  let n = 0;
  let fired = false;
  const touches = (args: unknown[]): boolean => args.some((a) => typeof a === 'string' && dbs.some((d) => a === d || a.startsWith(`${d}-`)));
  const fs = new Proxy(real, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'constructor') return value;
      return (...args: unknown[]) => {
        if ((method === undefined || prop === method) && touches(args)) {
          n += 1;
          if (n === at) {
            fired = true;
            return Promise.reject(Object.assign(new Error(`interrupted at call ${at} (${String(prop)})`), { code: 'EIO' }));
          }
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as FileSystemPort;
  return { fs, fired: () => fired, calls: () => n };
}

/** An empty process table (no holder, no command line): purges are never in use and spawn nothing. */
export function quietProc(): FakeProcessTable {
  return new FakeProcessTable([], { self: { pid: 50, argv: ['node', 'mam'] } });
}

/** Purges `id` on the given port (and a quiet process table). */
export function purgeWith(fs: FileSystemPort, agent: AgentName, id: string, opts: { home: string; env: Record<string, string> }): Promise<PurgeResult> {
  return new PurgeService({ ports: { fs, proc: quietProc() } }).purge(agent, id, opts);
}

/**
 * Runs `fn` (the interrupted run, then the rerun) while a connection holds each database open, having read it: a close
 * of the purge's own connections is then never the last one, which would checkpoint the `-wal` that a killed run leaves
 * as it is (a connection that never read holds no lock on the WAL index and would not count).
 */
export async function withHolders<T>(dbs: readonly string[], fn: () => Promise<T>): Promise<T> {
  const held = dbs.map((d) => new Database(d, { fileMustExist: true }));
  try {
    for (const h of held) h.prepare('SELECT count(*) FROM sqlite_schema').get();
    return await fn();
  } finally {
    for (const h of held) h.close();
  }
}

/** Every regular file under `root` whose bytes contain `needle`. */
export function filesContaining(root: string, needle: string): string[] {
  const out: string[] = [];
  const bytes = Buffer.from(needle, 'utf8');
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else if (st.isFile() && readFileSync(p).includes(bytes)) out.push(p);
    }
  };
  walk(root);
  return out.sort();
}

/** The files of `root` naming `id` that the result does not report as a mention (what a purge must never leave). */
export function unreportedCopies(root: string, id: string, result: PurgeResult): string[] {
  const mentioned = new Set(result.kind === 'purged' ? result.mentions.map((m) => artifactPath(m)) : []);
  return filesContaining(root, id).filter((f) => !mentioned.has(f));
}

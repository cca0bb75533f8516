// The shared fault matrix: one conversation on an agent's stage, purged under each fault (an unreadable store, a
// read-only filesystem, a missing better-sqlite3 binding, ENOSPC, EIO), with the same laws for every agent:
// - honest outcome: the result is `purged` (CLI exit 0) only when no byte of the id is left in the stage outside the
//   shared files the purge names as mentions; otherwise its kind (`partial`, `refused`, …) and exit code say so, and a
//   `partial`/`refused` result names the injected cause among its typed faults (where the fault is met at all);
// - honest dry run: a store that cannot be read or a binding that cannot load makes the dry run exit non-zero when
//   anything of the id is on disk;
// - finishable: with the fault removed, a rerun purges the conversation (`purged`, nothing of the id verifies, no byte
//   of it left outside mentions).
// The last fault of the matrix, an interruption at every step (a simulated crash), is in test/helpers/fault-interrupt.ts.
// `faultMatrixCase` takes any stage (a function of the agent's stage builder), so an adapter conformance suite can run it.
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import type { PurgeFaultCause } from '../../src/purge/purge-fault.js';
import { type PurgeResult, purgeExitCode } from '../../src/purge/purge-result.js';
import { realSqliteModule, type SqliteLoader, withSqliteLoader } from '../../src/sqlite/driver.js';
import { type FaultErrno, RecordingFileSystem } from '../../src/testing/fs/recording-file-system.js';
import { NodeClock } from '../../src/node/node-clock.js';
import { PurgeService } from '../../src/purge/purge-service.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { type FaultStage, cleanEnv } from './fault-stages.js';

/** The faults of the matrix, named by the cause a purge must report. */
export const MATRIX_FAULTS = ['unreadable-store', 'read-only', 'missing-binding', 'no-space', 'io-error'] as const satisfies readonly PurgeFaultCause[];

/** One fault of the matrix. */
export type MatrixFault = (typeof MATRIX_FAULTS)[number];

/** How a case injects its fault: from which filesystem mutation on (1-based) the port fails; SQLite writes fail from the first. */
export interface MatrixCaseOptions {
  /** The first failing mutation of the filesystem faults (read-only, no-space, io-error); default 1 (every mutation fails). */
  from?: number;
}

const SQLITE_HEADER = Buffer.from('SQLite format 3\0', 'latin1');
const ERRNO: Partial<Record<MatrixFault, FaultErrno>> = { 'read-only': 'EROFS', 'no-space': 'ENOSPC', 'io-error': 'EIO' };
// A read-write open fails as SQLite's writes do on a read-only filesystem (SQLITE_READONLY), on a full disk, on a bad one.
const SQLITE_FAULT: Partial<Record<MatrixFault, [string, string]>> = { 'read-only': ['attempt to write a readonly database', 'SQLITE_READONLY'], 'no-space': ['database or disk is full', 'SQLITE_FULL'], 'io-error': ['disk I/O error', 'SQLITE_IOERR'] };

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

function head(path: string, n: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const b = Buffer.alloc(n);
    const got = readSync(fd, b, 0, n, 0);
    return b.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Every SQLite database file under `root` (by its header). */
export function sqliteFiles(root: string): string[] {
  return walk(root).filter((p) => head(p, 16).equals(SQLITE_HEADER));
}

/** Every regular file under `root` whose bytes hold `id` (UTF-8). */
export function filesHolding(root: string, id: string): string[] {
  const needle = Buffer.from(id, 'utf8');
  return walk(root).filter((p) => readFileSync(p).includes(needle));
}

/** The stage's root: the common directory of its home and workspace (the stages build both under one root). */
export function stageRoot(stage: FaultStage): string {
  const a = stage.home.split('/');
  const b = stage.workspace.split('/');
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  return a.slice(0, i).join('/') || '/';
}

/** A loader standing in for better-sqlite3 under `fault` (null: the real module). */
export function faultLoader(fault: MatrixFault): SqliteLoader | null {
  if (fault === 'missing-binding') {
    return () => {
      throw new Error('Could not locate the bindings file. Tried: build/Release/better_sqlite3.node');
    };
  }
  const real = realSqliteModule();
  const failing = SQLITE_FAULT[fault];
  if (failing !== undefined) {
    const [message, code] = failing;
    return () =>
      new Proxy(real, {
        construct: (t, args: [unknown, BetterSqlite3.Options | undefined]) => {
          if (args[1]?.readonly !== true) throw new real.SqliteError(message, code);
          return Reflect.construct(t, args) as object;
        },
      });
  }
  return null;
}

function faultFs(fault: MatrixFault, from: number): FileSystemPort {
  const errno = ERRNO[fault];
  const inner = new NodeFileSystem();
  return errno === undefined ? inner : new RecordingFileSystem(inner, { failAt: (_m, n) => (n >= from ? errno : null) });
}

// Damages the header of every SQLite database of the stage (its rows' bytes stay in the file); returns how to undo it.
function damageStores(root: string): () => void {
  const files = sqliteFiles(root);
  for (const f of files) {
    const fd = openSync(f, 'r+');
    writeSync(fd, Buffer.alloc(16, 0x41), 0, 16, 0);
    closeSync(fd);
  }
  return () => {
    for (const f of files) {
      const fd = openSync(f, 'r+');
      writeSync(fd, SQLITE_HEADER, 0, 16, 0);
      closeSync(fd);
    }
  };
}

/** A purge service where no process holds the conversation (an in-memory table: no ps or lsof per case), no herdr; the filesystem as given. */
export function matrixService(stage: FaultStage, fs: FileSystemPort): PurgeService {
  const env = Object.fromEntries(Object.entries(cleanEnv(stage.home)).filter((e): e is [string, string] => e[1] !== undefined));
  const proc = new FakeProcessTable([{ pid: 1, argv: ['init'] }], { self: { pid: 500, ppid: 1, argv: ['node', 'mam'], env } });
  return new PurgeService({ ports: { fs, proc, herdr: new FakeHerdr(), clock: new NodeClock() } });
}

/** The files a purged or partial result names as mentions. */
export function mentionPaths(r: PurgeResult): string[] {
  if (r.kind !== 'purged' && r.kind !== 'partial') return [];
  return r.mentions.map((m) => (m.kind === 'rows' ? m.db : m.path));
}

function leftBytes(root: string, id: string, rs: ReadonlyArray<PurgeResult | null>, exempt: (path: string) => boolean): string[] {
  const mentioned = new Set(rs.flatMap((r) => (r === null ? [] : mentionPaths(r))));
  return filesHolding(root, id).filter((p) => !mentioned.has(p) && !exempt(p));
}

/** What a case found: the faulted result, the rerun's, and every broken law (empty when all hold). */
export interface MatrixCaseReport {
  result: PurgeResult | null;
  dryRunExit: number | null;
  rerun: PurgeResult | null;
  problems: string[];
}

/** Options of the laws: files whose bytes of the id a purge may still leave (a known gap, named by the caller). */
export interface MatrixLawOptions extends MatrixCaseOptions {
  /** Files a byte of the id may stay in after a full purge (e.g. freed SQLite pages before their scrub); default none. */
  exempt?: (path: string) => boolean;
}

/** Restores the stage, purges its conversation under `fault`, checks the laws, removes the fault and reruns. */
export async function faultMatrixCase(stage: FaultStage, fault: MatrixFault, opts: MatrixLawOptions = {}): Promise<MatrixCaseReport> {
  const at = `${stage.agent} ${fault}${opts.from === undefined ? '' : ` from mutation ${opts.from}`}`;
  const exempt = opts.exempt ?? (() => false);
  const problems: string[] = [];
  stage.restore();
  const root = stageRoot(stage);
  const undo = fault === 'unreadable-store' ? damageStores(root) : () => undefined;
  const loader = faultLoader(fault);
  const under = <T>(fn: () => Promise<T>): Promise<T> => (loader === null ? fn() : withSqliteLoader(loader, fn));
  const svc = matrixService(stage, faultFs(fault, opts.from ?? 1));
  const target = { home: stage.home, workspace: stage.workspace, env: stage.env };
  let result: PurgeResult | null = null;
  let dryRunExit: number | null = null;
  try {
    const dry = await under(() => svc.purge(stage.agent, stage.id, { ...target, dryRun: true }));
    dryRunExit = purgeExitCode(dry);
    result = await under(() => svc.purge(stage.agent, stage.id, target));
  } catch (err) {
    problems.push(`${at}: purge threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  }
  if (result !== null) {
    const left = leftBytes(root, stage.id, [result], exempt);
    const exit = purgeExitCode(result);
    if (left.length > 0 && (result.kind === 'purged' || exit === 0)) problems.push(`${at}: ${result.kind} (exit ${exit}) although the id is still in ${left.join(', ')}`);
    if (left.length > 0 && (fault === 'unreadable-store' || fault === 'missing-binding') && dryRunExit === 0) problems.push(`${at}: the dry run exits 0 although its store cannot be read and the id is in ${left.join(', ')}`);
    if ((result.kind === 'partial' || result.kind === 'refused') && left.length > 0 && !result.faults.some((f) => f.cause === fault)) {
      problems.push(`${at}: ${result.kind} without naming the cause ${fault}: ${JSON.stringify(result.faults)} / ${JSON.stringify(result)}`);
    }
  }
  undo();
  let rerun: PurgeResult | null = null;
  try {
    // Unscoped: a grok purge under an unreadable search database or a missing binding removes the session dirs (what
    // proves the workspace) and keeps the search rows, which record none; the interruption fault reruns scoped.
    const clean = matrixService(stage, new NodeFileSystem());
    rerun = await clean.purge(stage.agent, stage.id, { home: stage.home, env: stage.env });
    // `unresolved`: the faulted run had removed everything already (the byte search below still has its say).
    const finished = rerun.kind === 'purged' || (rerun.kind === 'unresolved' && result?.kind === 'purged');
    if (!finished) problems.push(`${at}: the rerun without the fault did not finish: ${JSON.stringify(rerun)}`);
    // The faulted run's mentions count too: a rerun that finds nothing left (`unresolved`) names no shared file.
    const left = leftBytes(root, stage.id, [result, rerun], exempt);
    if (left.length > 0) problems.push(`${at}: after the rerun the id is still in ${left.join(', ')}`);
    if (await clean.adapter(stage.agent).hasArtifacts(stage.id, { workspace: stage.workspace, home: stage.home, env: stage.env })) problems.push(`${at}: after the rerun the id still has artifacts`);
  } catch (err) {
    problems.push(`${at}: rerun threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`);
  }
  return { result, dryRunExit, rerun, problems };
}

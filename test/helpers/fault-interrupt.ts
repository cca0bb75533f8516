// The interruption fault of the shared matrix (test/helpers/fault-matrix.ts): a purge that dies at step N — from its N-th
// call of the filesystem port on, every call (a DirHandle's included) rejects and no database can be opened any more, as
// nothing more reaches the disk from a killed process — while a connection of another process holds each database (so
// the purge's own closes never checkpoint or remove the `-wal` a kill would leave). Its result is lost with it. Then a
// fresh purge service (nothing of the first run's memory) reruns the purge, and the laws hold for every agent:
// - the rerun, the same command scoped to the stage's workspace as a user reruns it, finishes: `purged` (or `unresolved` only when nothing of the id is left), never "unresolved" while a byte
//   of the id is on disk;
// - after it no byte of the id is in the stage outside the mentions a whole purge names, and nothing of it verifies.
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import { PortError } from '../../src/errors.js';
import type { FileSystemPort } from '../../src/ports/fs.js';
import { realSqliteModule, withSqliteLoader } from '../../src/sqlite/driver.js';
import { filesHolding, matrixService, mentionPaths, sqliteFiles, stageRoot } from './fault-matrix.js';
import type { FaultStage } from './fault-stages.js';
import { withHolders } from './finish-interrupt.js';

/** A filesystem port that counts its calls and, from call `at` on (0: never), rejects every one; `calls()` counts them. */
export interface CrashingFs {
  fs: FileSystemPort;
  calls: () => number;
  crashed: () => boolean;
}

/** Wraps the real port: every call counts as a step, and from step `at` on every call rejects (the process is gone); `onStep` sees each step before it runs. */
export function crashingFs(at: number, onStep?: (step: number) => void): CrashingFs {
  let n = 0;
  const crashed = (): boolean => at > 0 && n >= at;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, prop, receiver) {
        const value: unknown = Reflect.get(t, prop, receiver);
        if (typeof value !== 'function' || prop === 'constructor') return value;
        return (...args: unknown[]): unknown => {
          n += 1;
          onStep?.(n);
          if (crashed()) return Promise.reject(new PortError('IoError', `fs.${String(prop)}`, `interrupted at step ${at}`));
          const out = (value as (...a: unknown[]) => unknown).apply(t, args);
          // The fd-anchored removal works through the handle openDir gives: its calls are steps too.
          return prop === 'openDir' ? (out as Promise<object>).then((h) => wrap(h)) : out;
        };
      },
    });
  return { fs: wrap(new NodeFileSystem() as FileSystemPort), calls: () => n, crashed };
}

const target = (stage: FaultStage) => ({ home: stage.home, workspace: stage.workspace, env: stage.env });

/**
 * What a whole, uninterrupted purge of the stage does: how many port calls (steps) it makes, the steps that leave a
 * different disk when the purge dies there (step 1, and each step whose predecessor or the SQLite work before it changed
 * a file: dying at any other step leaves the disk as dying at the last of these before it), and the mentions it names.
 */
export interface InterruptionPlan {
  steps: number;
  distinct: number[];
  mentions: string[];
}

// Every entry under `root` with its kind, size and mtime (ns): equal at two steps when nothing changed on disk between.
function fingerprint(root: string): string {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      const st = lstatSync(p, { bigint: true });
      out.push(`${p} ${st.mode} ${st.size} ${st.mtimeNs} ${st.ino}`);
      if (st.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out.join('\n');
}

/** Restores the stage and purges it once without a fault, counting the steps and telling where the disk changed. */
export async function interruptionPlan(stage: FaultStage): Promise<InterruptionPlan> {
  stage.restore();
  const root = stageRoot(stage);
  const distinct: number[] = [];
  let last = '';
  const counter = crashingFs(0, (step) => {
    const now = fingerprint(root);
    if (step === 1 || now !== last) distinct.push(step);
    last = now;
  });
  const result = await matrixService(stage, counter.fs).purge(stage.agent, stage.id, target(stage));
  if (result.kind !== 'purged') throw new Error(`${stage.agent}: the uninterrupted purge is ${result.kind}: ${JSON.stringify(result)}`);
  return { steps: counter.calls(), distinct, mentions: mentionPaths(result) };
}

/**
 * Restores the stage and purges it interrupted at step `at` while another connection holds each database; then, still
 * under those holders, runs `after` (a fresh state: nothing of the first run's memory). Rejects when the purge made
 * fewer than `at` steps.
 */
export async function afterInterruption<T>(stage: FaultStage, at: number, after: () => Promise<T>): Promise<T> {
  stage.restore();
  const cut = crashingFs(at);
  // Once the process is gone it opens no database either.
  const real = realSqliteModule();
  const dead = () => new Proxy(real, { construct: (t, args: unknown[]) => { if (cut.crashed()) throw new Error(`interrupted at step ${at}`); return Reflect.construct(t, args) as object; } });
  return withHolders(sqliteFiles(stageRoot(stage)), async () => {
    await withSqliteLoader(dead, () => matrixService(stage, cut.fs).purge(stage.agent, stage.id, target(stage))).catch(() => undefined);
    if (!cut.crashed()) throw new Error(`${stage.agent} interrupted at step ${at}: the purge made fewer steps than counted (${cut.calls()})`);
    return after();
  });
}

/** Restores the stage, purges it interrupted at step `at`, reruns the same scoped command in a fresh state; the broken laws (empty when all hold). */
export async function interruptionCase(stage: FaultStage, at: number, plan: InterruptionPlan): Promise<string[]> {
  const where = `${stage.agent} interrupted at step ${at} of ${plan.steps}`;
  const problems: string[] = [];
  const root = stageRoot(stage);
  const mentioned = new Set(plan.mentions);
  await afterInterruption(stage, at, async () => {
    // The same scoped command, as a user reruns it: what the killed run removed may be what proved the workspace, and
    // what is left of the conversation still says which workspace it was of.
    const rerun = await matrixService(stage, new NodeFileSystem()).purge(stage.agent, stage.id, target(stage));
    for (const m of mentionPaths(rerun)) mentioned.add(m);
    const left = filesHolding(root, stage.id).filter((p) => !mentioned.has(p));
    if (rerun.kind !== 'purged' && !(rerun.kind === 'unresolved' && left.length === 0)) problems.push(`${where}: the rerun is ${rerun.kind}${left.length > 0 ? ` while ${left.join(', ')} hold the id` : ''}: ${JSON.stringify(rerun)}`);
  }).catch((err: unknown) => problems.push(`${where}: ${err instanceof Error ? err.message : String(err)}`));
  // After the other process let go too (its close may checkpoint what is current): still nothing of the id.
  const clean = matrixService(stage, new NodeFileSystem());
  const left = filesHolding(root, stage.id).filter((p) => !mentioned.has(p));
  if (left.length > 0) problems.push(`${where}: after the rerun the id is still in ${left.join(', ')}`);
  if (await clean.adapter(stage.agent).hasArtifacts(stage.id, target(stage))) problems.push(`${where}: after the rerun the id still has artifacts`);
  return problems;
}

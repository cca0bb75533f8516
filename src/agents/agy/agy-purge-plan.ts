import { AsyncLocalStorage } from 'node:async_hooks';
import type { FileSystemPort } from '../../ports/fs.js';
import type { ArtifactPath } from '../common/artifacts.js';
import { agyDescendants, agySubagentRecords } from './agy-family.js';
import { type AgyUnknownEntry, agyUnknownEntries } from './agy-layout.js';
import { type AgyPaths, agyLockPath, agyOwnPaths } from './agy-paths.js';
import { surveyAgy } from './agy-survey.js';

/**
 * What a purge of one conversation reaches: the conversations it removes (its subagents at any depth, deepest first,
 * then the id itself), their paths in removal order (each subagent's parent-side record with it), their presence locks
 * (removed last, the id's at the very end), and the entries naming any of them that this adapter does not understand
 * (any of which refuses the whole purge).
 * @public
 */
export interface AgyPurgePlan {
  /** The canonical ids removed: descendants deepest first, the id last. */
  ids: string[];
  /** Every path but the locks, in removal order. */
  paths: ArtifactPath[];
  /** The presence locks, in the order of `ids`. */
  locks: Array<{ id: string; lock: ArtifactPath }>;
  /** Entries not understood: the purge removes nothing while there is one. */
  unknown: AgyUnknownEntry[];
}

/**
 * Plans the purge of a canonical id (reads only; every database read-only). `skip` leaves a descendant — and everything
 * below it — out (a subagent another live process uses). Never throws.
 * @public
 */
export async function planAgyPurge(fs: FileSystemPort, p: AgyPaths, id: string, skip: (child: string) => Promise<boolean> = async () => false): Promise<AgyPurgePlan> {
  const all = await surveyAgy(fs, p).catch(() => []);
  const below = await agyDescendants(fs, p, id, all).catch(() => []);
  const skipped = new Set<string>();
  for (const child of below) if (await skip(child).catch(() => true)) skipped.add(child);
  // A skipped child keeps its own subtree: its descendants are found again from it.
  for (const s of [...skipped]) for (const d of await agyDescendants(fs, p, s, all).catch(() => [])) skipped.add(d);
  const ids = [...below.filter((c) => !skipped.has(c)), id];
  const paths: ArtifactPath[] = [];
  const unknown: AgyUnknownEntry[] = [];
  for (const c of ids) {
    for (const record of await agySubagentRecords(fs, p, c)) paths.push({ root: p.root, path: record });
    paths.push(...agyOwnPaths(p, c));
    unknown.push(...(await agyUnknownEntries(fs, p, c)));
  }
  return { ids, paths, locks: ids.map((c) => ({ id: c, lock: { root: p.root, path: agyLockPath(p, c) } })), unknown };
}

// The plans computed within one scope (one `planPurge` call), by id and roots.
const scope = new AsyncLocalStorage<Map<string, Promise<AgyPurgePlan>>>();

/**
 * Runs `fn` in a scope where {@link sharedAgyPurgePlan} computes each plan once: a purge preview asks for the same plan
 * from several hooks (paths, rows, refusals, notes) at the same instant. Calls outside the scope (a purge, a residual
 * check after it) always plan afresh.
 * @public
 */
export function withSharedAgyPlans<T>(fn: () => Promise<T>): Promise<T> {
  return scope.run(new Map(), fn);
}

/**
 * {@link planAgyPurge} without `skip`, computed once per id and roots inside {@link withSharedAgyPlans}, afresh outside it.
 * @public
 */
export function sharedAgyPurgePlan(fs: FileSystemPort, p: AgyPaths, id: string): Promise<AgyPurgePlan> {
  const plans = scope.getStore();
  if (plans === undefined) return planAgyPurge(fs, p, id);
  const key = `${id}\0${JSON.stringify(p)}`;
  let plan = plans.get(key);
  if (plan === undefined) plans.set(key, (plan = planAgyPurge(fs, p, id)));
  return plan;
}

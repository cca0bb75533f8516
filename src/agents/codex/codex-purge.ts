import { describeError } from '../../errors.js';
import { type Artifact, asLeft, type LeftArtifact } from '../../purge/artifact.js';
import { deadCopiesArtifact, wipeDeadCopies } from '../../sqlite/finish-dead-copies.js';
import { leftArtifacts, removeArtifacts } from '../common/artifacts.js';
import type { AgentStore, StorePurgeOutcome } from '../contract/agent-store.js';
import { pathPurge, swappedPaths } from '../contract/path-purge.js';
import type { HomeDiscoveryContext } from '../types.js';
import { surveyPaths, type CodexSurvey } from './codex-survey.js';
import type { CodexScope } from './codex-scope.js';
import { purgeDbRows } from './db-purge.js';
import { rowsNaming } from './rows-naming.js';

/** A sub-agent thread's rows say whose they are (`[child <id>]`), as OpenCode's child sessions do. */
export function asChild<T extends Artifact>(rows: readonly T[], child: string, parent: string): T[] {
  return child === parent ? [...rows] : rows.map((r) => (r.kind === 'rows' ? { ...r, child } : r));
}

// What one purge collects on its way: the notes it could not guarantee, the failed row deletes, the swapped paths.
interface Acc {
  notes: string[];
  rowFailures: LeftArtifact[];
  swapped: string[];
}

/**
 * The purge of a Codex store: the plan (rows and paths, as the generic "rows, then paths" plan), the execution (sub-agent
 * threads first, each thread's files before its rows, the state DBs' `threads` row last), the residual and the notes of
 * the last purge of an id. `mentions` is the store's, listed in the plan.
 */
export function codexPurge(
  scope: CodexScope,
  mentions: (id: string, ctx: HomeDiscoveryContext) => Promise<Artifact[]>,
): Pick<AgentStore, 'planPurge' | 'executePurge' | 'residual'> & { purgeNotes(id: string): Promise<string[]> } {
  const { fs, proc } = scope.ports;
  // What the last purge of a canonical id could not guarantee (a busy WAL still holding the deleted text).
  const lastNotes = new Map<string, string[]>();

  // Rows of every Codex database whose thread columns name the id or a sub-agent thread it spawned (kind `rows`); when
  // none does, the old copies of the id's deleted rows still in a database's bytes (a purge interrupted after its delete).
  const dbRows = async (id: string, ctx: HomeDiscoveryContext): Promise<Artifact[]> => {
    const s = await scope.survey(id, ctx);
    const out: Artifact[] = [];
    for (const k of [id, ...(await scope.descendants(id, ctx, s))]) out.push(...asChild((await rowsNaming(fs, s, k, (i) => i.columns.owned, true)).rows, k, id));
    return out.length > 0 ? out : scope.deadCopies(s, id);
  };

  // Deletes the thread's rows database by database; why a database kept its rows goes to the purge's row failures.
  const purgeRows = async (s: CodexSurvey, id: string, keepThreads: boolean, acc: Acc): Promise<Artifact[]> => {
    const deleted: Artifact[] = [];
    // The state DBs (their `threads` rows record the cwd) after every other database.
    for (const i of [...s.dbs].sort((a, b) => Number(a.db.state) - Number(b.db.state))) {
      if (!i.ok || (i.columns.owned.length === 0 && i.columns.rolloutPaths.length === 0)) continue;
      // A read-only look first: a database holding nothing of the thread is never opened for writing (but for the old
      // copies of deleted rows a writer without secure_delete left in its bytes, found by a search of them first).
      const { rows } = await rowsNaming(fs, { dbs: [i] }, id, (x) => x.columns.owned, true);
      let done: Awaited<ReturnType<typeof purgeDbRows>> | null = null;
      if (rows.length > 0) {
        done = await purgeDbRows(fs, i.db, id, keepThreads);
        deleted.push(...done.deleted);
        acc.notes.push(...done.notes);
        if (done.failure !== null) acc.rowFailures.push(done.failure);
      }
      if (done?.failure != null || (done?.notes.length ?? 0) > 0) continue;
      const wiped = await wipeDeadCopies(fs, proc, i.db.path, [id], 'Codex writes without secure_delete');
      acc.notes.push(...wiped.notes);
      // A rerun after a purge interrupted past its delete: the old copies were what was left, and they are gone now.
      if (done === null && wiped.before > 0 && wiped.after === 0) deleted.push(deadCopiesArtifact(i.db.path, wiped.before));
    }
    return deleted;
  };

  // One thread's files and rows (its sub-agents are the caller's business). Every file before the rows, the `threads`
  // row (it records the cwd) last: after a failure or a kill at any point what stays is still attributable to its
  // workspace (a rollout that could not go keeps its threads row, and both are residual), so the same scoped command
  // finishes it.
  const purgeOne = async (s: CodexSurvey, id: string, acc: Acc): Promise<Artifact[]> => {
    const files = await removeArtifacts(fs, surveyPaths(s));
    const stray = s.artifacts.rollouts.some((r) => files.residual.some((a) => a.kind !== 'rows' && a.path === r.path));
    const rows = await purgeRows(s, id, stray, acc);
    acc.swapped.push(...swappedPaths(files.residual));
    return [...rows, ...files.purged];
  };

  const purgeNotes = async (id: string): Promise<string[]> => [...(lastNotes.get(id) ?? [])];

  const plan = pathPurge(fs, {
    agent: 'codex',
    // Rollouts, shell snapshots and the writer lock of the thread, then of each sub-agent thread it spawned.
    async artifactPaths(id, ctx) {
      const s = await scope.survey(id, ctx);
      const kids = await Promise.all((await scope.descendants(id, ctx, s)).map((k) => scope.survey(k, ctx)));
      return [s, ...kids].flatMap(surveyPaths);
    },
    dbRows,
    // A state database of an unknown layout (or unreadable): the purge removes nothing.
    purgeRefusals: async (id, ctx) => (await scope.survey(id, ctx)).refusals,
    mentions,
    purgeNotes: (id) => purgeNotes(id),
  });

  return {
    planPurge: plan.planPurge,
    purgeNotes,
    // Removes the thread's sub-agent threads first (deepest first, each like the thread itself), then its rollouts, shell
    // snapshots and writer lock, then its database rows, the state DBs' last (the `threads` row stays if a rollout could
    // not go); nothing on an unknown layout. Never rejects: what it collected before a failure is still said.
    async executePurge(c: string, ctx: HomeDiscoveryContext): Promise<StorePurgeOutcome> {
      lastNotes.delete(c);
      const acc: Acc = { notes: [], rowFailures: [], swapped: [] };
      const said = (removed: Artifact[]): StorePurgeOutcome => ({ removed, swapped: acc.swapped, rowFailures: acc.rowFailures });
      try {
        const s = await scope.survey(c, ctx);
        if (s.refusals.length > 0) return said([]);
        // Collected before anything goes: the spawn edges that link the children are rows of the parent.
        const kids = await scope.descendants(c, ctx, s);
        if (kids.length > 0) {
          if (scope.purgedKids.size >= 256) scope.purgedKids.delete(scope.purgedKids.keys().next().value as string);
          scope.purgedKids.set(c, kids);
        }
        const purged: Artifact[] = [];
        for (const k of [...kids].reverse()) purged.push(...asChild(await purgeOne(await scope.survey(k, ctx), k, acc), k, c));
        purged.push(...(await purgeOne(s, c, acc)));
        return said(purged);
      } catch {
        return said([]);
      } finally {
        if (acc.notes.length > 0) lastNotes.set(c, [...new Set(acc.notes)]);
      }
    },
    // Files and rows of the thread (and of every sub-agent thread it spawned: a child left behind is the parent's
    // residual) still there, with refusals and unreadable places explaining them; a failed check is one entry.
    async residual(c: string, ctx: HomeDiscoveryContext): Promise<LeftArtifact[]> {
      try {
        const s = await scope.survey(c, ctx);
        const own: LeftArtifact[] = [];
        const notes = new Map<string, LeftArtifact>();
        for (const k of [c, ...(await scope.descendants(c, ctx, s))]) {
          const ks = k === c ? s : await scope.survey(k, ctx);
          const files = await leftArtifacts(fs, surveyPaths(ks));
          const found = await rowsNaming(fs, ks, k, (i) => i.columns.owned, true);
          own.push(...files, ...asChild(found.rows.map(asLeft), k, c));
          for (const n of found.notes) notes.set(`${n.kind === 'rows' ? n.db : n.path}\0${n.reason}`, n);
        }
        // No row and no file: the old copies of the id's deleted rows still in a database's bytes are what stays.
        if (own.length === 0) own.push(...(await scope.deadCopies(s, c)).map(asLeft));
        const unreadable = s.artifacts.unreadable.map((d): LeftArtifact => ({ kind: 'dir', path: d, reason: 'unreadable' }));
        // Refusals and unreadable places explain what stays; alone they are no evidence of this conversation.
        return own.length === 0 ? [] : [...own, ...s.refusals, ...unreadable, ...notes.values()];
      } catch (err) {
        return [{ kind: 'dir', path: ctx.home, reason: `residual check failed: ${describeError(err)}` }];
      }
    },
  };
}

import { stopIfAborted } from '../../abort.js';
import { InvalidArgumentError } from '../../invalid-argument-error.js';
import { lazySchema, type Zod } from '../../lazy-zod.js';
import type { FileSystemPort } from '../../ports/fs.js';
import { absolutePathSchema, parseArgument, requireDirectory } from '../../validation/common-schemas.js';
import type { HomeDiscoveryContext } from '../types.js';
import type { AgentReads } from './agent-definition.js';
import { plainlyValidQueries } from '../../validation/plainly-valid-queries.js';
import { checkDiscoveryContext, markContextChecked, notePendingHomeCheck } from '../../validation/discovery-context.js';
import { deferHomeCheck, endDeferredHomeCheck } from '../../validation/home-proof.js';

/** What one argument of an adapter method is. */
export type ArgKind = 'id' | 'ctx' | 'mode' | 'row' | 'queries';

// The methods that only read the agent's store: under `reads.kind` `files` or `files-then-spawn` the home's stat runs
// while they read, and its failure is still the answer (theirs is dropped). Every other method starts only once the home
// is known a directory.
const READS_ONLY = new Set(['discover', 'verifyArtifact', 'verifyMany', 'owns', 'hasArtifacts', 'currentId']);
// Of those, the methods a store whose `reads.provesHome` is true proves the home by (the stat then deferred, home-proof.ts).
const PROVING = new Set(['discover', 'verifyArtifact', 'verifyMany']);

const modeSchema = lazySchema((z: Zod) => z.enum(['verify', 'discover'], { error: 'must be "verify" or "discover"' }).optional());
/** The schema of `verifyMany`'s query list (built on first use). */
export const queriesSchema = lazySchema((z: Zod) =>
  z.array(z.object({ id: z.string({ error: 'must be a string (a conversation id)' }), workspace: absolutePathSchema(z).optional() }, { error: 'must be an object { id, workspace? }' }), {
    error: 'must be an array of { id, workspace? }',
  }),
);
const rowSchema = lazySchema((z: Zod) =>
  z.looseObject({ herdr_session_epoch: z.number({ error: 'must be a number or null' }).nullable().optional() }, { error: 'must be a session row (an object)' }),
);

/**
 * Throws {@link InvalidArgumentError} unless `id` is a string. Any string is taken: ids come from registry rows and agent
 * stores, so an implausible one (`""`, `../x`, a NUL byte) stays a value — it reaches no path and the method answers
 * "nothing" — as the hostile-id laws require.
 */
export function checkConversationId(id: unknown, param = 'id'): string {
  if (typeof id !== 'string') throw new InvalidArgumentError(param, `must be a string (a conversation id), got ${id === null ? 'null' : typeof id}`);
  return id;
}

/** A home still to stat: the parameter it came from and the normalised context. */
interface Stat {
  /** `ctx.home` or `ctx.homeDir`. */
  param: string;
  /** The normalised context. */
  ctx: HomeDiscoveryContext;
  /** The stat of the home already running for it (a batch started it), if any. */
  pending?: Promise<void> | undefined;
}

/** The arguments checked and the context normalised; the home still to stat (or null: nothing will be read). */
function checkArgs(kinds: readonly ArgKind[], args: unknown[], plausible: (id: string) => boolean): { args: unknown[]; stat: Stat | null } {
  const out = [...args];
  let idOk = true;
  let stat: Stat | null = null;
  kinds.forEach((kind, i) => {
    switch (kind) {
      case 'id':
        idOk = plausible(checkConversationId(args[i]));
        return;
      case 'ctx': {
        const c = checkDiscoveryContext(args[i]);
        out[i] = c.ctx;
        if (!c.known) stat = { param: c.homeParam, ctx: c.ctx, pending: c.pending };
        return;
      }
      case 'mode':
        // The three values the schema takes, without a parse; anything else gets the schema's fault.
        if (args[i] !== undefined && args[i] !== 'verify' && args[i] !== 'discover') parseArgument(modeSchema, 'mode', args[i]);
        return;
      case 'row':
        parseArgument(rowSchema, 'row', args[i]);
        return;
      case 'queries':
        // The common well-formed list without a parse (a status hands every agent one); anything else gets the schema.
        if (!plainlyValidQueries(args[i])) parseArgument(queriesSchema, 'queries', args[i]);
        return;
      default:
        return kind satisfies never;
    }
  });
  // An implausible id reaches no path, so nothing is read for it (not even the home).
  return { args: out, stat: idOk ? stat : null };
}

// A read-only method of an adapter whose `provesHome` is true: the home's stat is deferred while it reads, and taken only
// when nothing it looked at inside the home proved it a directory (or when the method asked for it, see home-proof.ts).
async function provenOrChecked(stat: Stat, run: () => unknown, fs: () => FileSystemPort): Promise<unknown> {
  const d = deferHomeCheck(stat.ctx, () => requireDirectory(fs(), stat.param, stat.ctx.home).then(() => markContextChecked(stat.ctx)));
  const answer = Promise.resolve().then(run);
  answer.catch(() => undefined);
  try {
    await answer;
  } catch {
    // The home's fault, when it has one, is the answer; the method's own comes after it.
  }
  // A look inside the home may still be on its way (a read that failed first, e.g. no database beside the directory).
  if (d.looks.length > 0) await Promise.all(d.looks);
  endDeferredHomeCheck(stat.ctx);
  if (d.proven && d.started === undefined) markContextChecked(stat.ctx);
  else await d.run();
  return answer;
}

// The context's signal, when the method takes a context and it has one.
function signalOf(kinds: readonly ArgKind[], args: readonly unknown[]): AbortSignal | undefined {
  const i = kinds.indexOf('ctx');
  return i < 0 ? undefined : (args[i] as HomeDiscoveryContext | undefined)?.signal;
}

/** The one argument checker of an adapter: what its store's reads allow, its fs port, and which ids are plausible. */
export interface MethodGuard {
  /** Checks `args` as `kinds`, then runs `impl` with the normalised arguments (the context's `home` set, `homeDir` gone). */
  call<T>(method: string, kinds: readonly ArgKind[], args: unknown[], impl: (args: unknown[]) => Promise<T>): Promise<T>;
  /** The same check for the one synchronous method (`inUseHints`): no stat of the home. */
  callSync<T>(kinds: readonly ArgKind[], args: unknown[], impl: (args: unknown[]) => T): T;
}

/**
 * The argument check of every public adapter method: one zod parse at most, then one stat of the home before the method
 * runs — or, for a read-only method of a store whose reads are `files` or `files-then-spawn`, while it runs, its answer
 * given only once the home is known a directory — and a bad argument throws (rejects with) {@link InvalidArgumentError}
 * naming it. A context it normalised passes again unchecked.
 */
export function methodGuard(fs: () => FileSystemPort, plausible: (id: string) => boolean, reads: AgentReads): MethodGuard {
  const alongsideKind = reads.kind === 'files' || reads.kind === 'files-then-spawn';
  const run = async <T>(method: string, checked: { args: unknown[]; stat: Stat | null }, impl: (args: unknown[]) => Promise<T>): Promise<T> => {
    const { stat } = checked;
    if (stat === null) return impl(checked.args);
    const alongside = alongsideKind && READS_ONLY.has(method);
    if (alongside && stat.pending === undefined && PROVING.has(method) && reads.provesHome === true) return provenOrChecked(stat, () => impl(checked.args), fs) as Promise<T>;
    const home = stat.pending ?? requireDirectory(fs(), stat.param, stat.ctx.home).then(() => markContextChecked(stat.ctx));
    if (!alongside) {
      await home;
      return impl(checked.args);
    }
    home.catch(() => undefined);
    notePendingHomeCheck(stat.ctx, home);
    const answer = Promise.resolve().then(() => impl(checked.args));
    answer.catch(() => undefined);
    await home;
    return answer;
  };
  return {
    async call(method, kinds, args, impl) {
      const checked = checkArgs(kinds, args, plausible);
      const signal = signalOf(kinds, checked.args);
      stopIfAborted(signal);
      // A read-only method is looked at again when it is done: an abort while it read rejects the call.
      if (READS_ONLY.has(method) && signal !== undefined) return run(method, checked, impl).then((v) => (stopIfAborted(signal), v));
      return run(method, checked, impl);
    },
    callSync(kinds, args, impl) {
      return impl(checkArgs(kinds, args, plausible).args);
    },
  };
}

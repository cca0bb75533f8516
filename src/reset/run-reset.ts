import type { SessionLifecycle } from '../lifecycle/session-lifecycle.js';
import { describeError } from '../errors.js';
import { LoopGuard, type LoopGuardAcquire } from '../loop/loop-guard.js';
import type { Ports } from '../ports/index.js';
import { RegistryFileRefusedError } from '../registry/registry-file-refused-error.js';
import type { SessionRegistry } from '../registry/session-registry.js';
import { dryRunListing } from './dry-run-listing.js';
import { precheckReset } from './precheck-reset.js';
import { classifyEntry } from './reset-entry.js';
import type { ResetFailed, ResetOutcome, ResetRefused } from './reset-outcome.js';
import type { ResetRefusal } from './reset-refusal.js';
import { readResetSpec, removeResetSpec, resetSpecPath, writeResetSpec } from './reset-spec-file.js';
import { resetStep } from './reset-step.js';
import type { ResetRunNote, ResetTableRow } from './reset-table.js';
import { signalExitCode } from './signal-exit-code.js';

/**
 * Options of a reset run: `yes` confirms; without it a non-interactive run exits 3 and an interactive one asks `confirm`;
 * `dryRun` lists and touches nothing; `signal` stops the run between steps (its reason the signal's name).
 * @public
 */
export interface ResetRunOptions {
  /** Confirms the reset. */
  yes?: boolean;
  /** List what would be done and touch nothing. */
  dryRun?: boolean;
  /** True when a person at a terminal can answer `confirm`. */
  interactive?: boolean;
  /** Stops the run between steps; its reason, the signal's name, gives the exit code (129, 130, 143). */
  signal?: AbortSignal;
  /** Receives one line per step (no conversation id). */
  onTrace?: (line: string) => void;
  /** The caller's environment for the "caller is a target" check (default the ProcessPort's). */
  callerEnv?: Record<string, string | undefined>;
  /** Asks a person at a terminal to confirm (interactive runs without `yes`); no answer means no. */
  confirm?: () => Promise<boolean>;
}

/**
 * What {@link runReset} works with.
 * @public
 */
export interface ResetRunContext {
  /** The workspace reset. */
  workspace: string;
  /** The ports the run works through. */
  ports: Ports;
  /** The workspace's registry. */
  registry: SessionRegistry;
  /** Persists a newly recorded id into the spec entry (see {@link ResetPlanner.recordId}); true when it wrote. */
  recordId: (name: string) => Promise<boolean>;
  /** Builds the result table from the registry now, each run note replacing its target's state. */
  table: (notes: ReadonlyMap<string, ResetRunNote>) => Promise<{ rows: ResetTableRow[]; text: string; exitCode: 0 | 1 | 4 | 5 }>;
  /** Builds the lifecycle the run stops and creates sessions with (once per run). */
  lifecycle: () => SessionLifecycle;
}

function refused(message: string, refusals: ResetRefusal[] = [], specKept = false): ResetRefused {
  return { kind: 'refused', exitCode: 1, table: '', rows: [], refusals, message, specKept };
}

function failedBare(message: string, specKept: boolean): ResetFailed {
  return { kind: 'failed', exitCode: 1, table: '', rows: [], message, specKept };
}

/**
 * Runs a reset: confirmation, precheck, then — holding the loop guard for the whole run — the spec written before the
 * first stop and each target handled in spec order, one at a time; the spec and guard go when everything is done. A
 * filesystem fault (taking or releasing the guard, writing or removing the spec, inside a step) is an outcome with
 * exit 1, never a throw.
 * @public
 */
export async function runReset(c: ResetRunContext, opts: ResetRunOptions): Promise<ResetOutcome> {
  if (opts.dryRun !== true && opts.yes !== true) {
    if (opts.interactive !== true) return { kind: 'needs-confirmation', exitCode: 3, table: '', rows: [], message: 'stdin is not a terminal: re-run with --yes to confirm the reset', specKept: false };
    if (opts.confirm === undefined || !(await opts.confirm())) return refused('the reset was not confirmed; nothing was done');
  }
  const env = opts.callerEnv ?? c.ports.proc.env();
  const pre = await precheckReset(c.ports, c.workspace, await c.registry.inspect(), env, { agents: c.registry.agents });
  if (pre.kind === 'refused') return refused(pre.message, pre.refusals);
  if (opts.dryRun === true) return { kind: 'dry-run', exitCode: 0, table: '', rows: [], message: dryRunListing(pre.targets, pre.plan), specKept: false };
  // A registry that cannot be written (a linked mirror, a foreign database) is refused before any agent is stopped.
  const files = await c.registry.checkFiles().then(() => null, (err: unknown) => err);
  if (files instanceof RegistryFileRefusedError) return refused(`${files.message}; nothing was done`);
  if (files !== null) return failedBare(`the registry could not be checked: ${describeError(files)}; nothing was done`, pre.spec !== null);
  if (opts.signal?.aborted === true) {
    return { kind: 'interrupted', exitCode: signalExitCode(opts.signal.reason), table: '', rows: [], message: 'stopped by a signal before anything was done', specKept: pre.spec !== null };
  }
  let got: LoopGuardAcquire;
  try {
    got = await new LoopGuard(c.workspace, { ports: c.ports }).acquire({ holder: 'reset' });
  } catch (err) {
    return failedBare(`the loop guard could not be taken: ${describeError(err)}; nothing was done`, pre.spec !== null);
  }
  if (got.kind === 'refused') return refused(got.message);
  const notes = new Map<string, ResetRunNote>();
  let out: ResetOutcome;
  try {
    out = await guarded(c, opts, env, notes);
  } catch (err) {
    out = await stoppedByFault(c, notes, err);
  }
  const { guard } = got;
  return guard.release().then(
    () => out,
    (err: unknown) => guardLeft(out, guard.path, err),
  );
}

// A guard marker the release could not remove blocks loops until it goes: a done run says so and exits 1.
function guardLeft(out: ResetOutcome, path: string, err: unknown): ResetOutcome {
  const left = `the loop guard marker ${path} could not be removed (${describeError(err)}): remove it by hand`;
  const message = out.message === '' ? left : `${out.message}\n${left}`;
  // Only a done run turns into a failed one (its spec is gone); any other outcome keeps its kind and exit code.
  return out.kind === 'done' ? { kind: 'failed', exitCode: 1, table: out.table, rows: out.rows, message, specKept: false } : { ...out, message };
}

// A fault no step could turn into an outcome (the spec write, a read between steps): exit 1 with the table as it stands.
async function stoppedByFault(c: ResetRunContext, notes: ReadonlyMap<string, ResetRunNote>, err: unknown): Promise<ResetOutcome> {
  const table = await c.table(notes).catch(() => null);
  const rows = table?.rows ?? [];
  const where = table === null ? 'the table could not be read: run the reset again to see where it stands' : rows.length > 0 ? 'the spec is kept: run the reset again to finish' : 'no target was touched';
  const message = `the reset stopped on a fault: ${describeError(err)}; ${where}`;
  return { kind: 'failed', exitCode: 1, table: table?.text ?? '', rows, message, specKept: table === null || rows.length > 0 };
}

async function guarded(c: ResetRunContext, opts: ResetRunOptions, env: Readonly<Record<string, string | undefined>>, notes: Map<string, ResetRunNote>): Promise<ResetOutcome> {
  // Checked again under the guard: what changed since the first look refuses the same way (our own marker aside).
  const pre = await precheckReset(c.ports, c.workspace, await c.registry.inspect(), env, { ownLoopGuard: true, agents: c.registry.agents });
  if (pre.kind === 'refused') return refused(pre.message, pre.refusals, pre.refusals.some((r) => r.kind === 'bad-spec'));
  const targets = pre.spec?.agents ?? pre.targets;
  if (pre.spec === null && targets.length > 0) await writeResetSpec(c.ports.fs, c.ports.clock, c.workspace, targets);
  const trace = opts.onTrace ?? ((): void => undefined);
  const stopRequested = (): boolean => opts.signal?.aborted === true;
  const life = c.lifecycle();
  let interrupted = false;
  for (const t of targets) {
    if (stopRequested()) {
      interrupted = true;
      break;
    }
    const now = (await readResetSpec(c.ports.fs, c.workspace, { agents: c.registry.agents }))?.agents.find((a) => a.name === t.name) ?? t;
    const entry = classifyEntry(now, await c.registry.snapshot(), { agents: c.registry.agents });
    const out = await resetStep({ life, herdr: c.ports.herdr, workspace: c.workspace, trace, recordId: async (n) => void (await c.recordId(n)), stopRequested }, entry);
    if (out.kind === 'interrupted') {
      interrupted = true;
      break;
    }
    if (out.note !== null) notes.set(t.name, out.note);
  }
  interrupted ||= stopRequested();
  const table = await c.table(notes);
  if (interrupted) {
    const message = 'stopped by a signal after the step in flight; the spec is kept: run the reset again to finish';
    return { kind: 'interrupted', exitCode: signalExitCode(opts.signal?.reason), table: table.text, rows: table.rows, message, specKept: targets.length > 0 };
  }
  const { exitCode } = table;
  const base = { table: table.text, rows: table.rows, message: '' };
  if (exitCode === 0) {
    const kept = await removeResetSpec(c.ports.fs, c.workspace).then(() => null, (err: unknown) => describeError(err));
    if (kept !== null) {
      const message = `every target is done, but the spec ${resetSpecPath(c.workspace)} could not be removed (${kept}): run the reset again to remove it`;
      return { kind: 'failed', exitCode: 1, table: table.text, rows: table.rows, message, specKept: true };
    }
    return { kind: 'done', exitCode: 0, ...base, specKept: false };
  }
  const specKept = targets.length > 0;
  return exitCode === 1 ? { kind: 'failed', exitCode, ...base, specKept } : { kind: 'incomplete', exitCode, ...base, specKept };
}

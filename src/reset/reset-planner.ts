import type { SessionLifecycleOptions } from '../lifecycle/session-lifecycle.js';
import { resolvePorts } from '../node/node-ports.js';
import { describeError } from '../errors.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { Ports } from '../ports/index.js';
import { checkPrecheckOptions, checkResetPlannerOptions, checkResetRunOptions, type ResetPlannerOptions } from './reset-options.js';
import { checkNameArg, checkPathArg, workspaceExists } from '../validation/workspace-args.js';
import { SessionRegistry } from '../registry/session-registry.js';
import type { ResetEntry } from './reset-entry.js';
import type { ResetOutcome } from './reset-outcome.js';
import type { PrecheckResult } from './precheck-reset.js';
import type { ResetRunNote, ResetTableRow } from './reset-table.js';
import type { ResetPlan } from './reset-target.js';
import type { ResetRunOptions } from './run-reset.js';

export type { ResetPlannerOptions } from './reset-options.js';

// Only what the constructor needs is imported here: each method loads the steps it runs on its first call, so importing
// @mam/core does not load the reset.

/**
 * Plans, checks and runs the reset of a workspace: every running control-root agent gets a fresh conversation, one
 * target at a time, resumable from `.mam/reset-spec.json` after a crash, a failure or a signal.
 * @example
 * ```ts
 * const out = await new ResetPlanner('/repo').run({ yes: true, onTrace: (l) => log(l) });
 * process.exitCode = out.exitCode;
 * ```
 * @public
 */
export class ResetPlanner {
  readonly #workspace: string;
  readonly #ports: Ports;
  readonly #registry: SessionRegistry;
  readonly #lifeOpts: Omit<SessionLifecycleOptions, 'ports' | 'registry' | 'agents'>;
  readonly #exists: () => Promise<void>;

  /**
   * Binds the planner to a workspace (an absolute path; checked to be an existing directory at the first call, once);
   * nothing is read until a call. Throws an {@link InvalidArgumentError} naming the parameter for a workspace that is
   * not a non-empty absolute path or for bad options.
   */
  constructor(workspace: string, opts: ResetPlannerOptions = {}) {
    this.#workspace = checkPathArg('workspace', workspace);
    const o = checkResetPlannerOptions(opts);
    this.#ports = resolvePorts(o.ports);
    this.#registry = new SessionRegistry(workspace, { ports: this.#ports, ...(o.agents === undefined ? {} : { agents: o.agents }) });
    this.#lifeOpts = o.lifecycle ?? {};
    this.#exists = workspaceExists(this.#ports.fs, 'workspace', workspace);
  }

  /** The plan over the registry as it is now (read only). */
  async plan(): Promise<ResetPlan> {
    await this.#exists();
    const { planReset } = await import('./plan-reset.js');
    return planReset(await this.#registry.inspect(), this.#workspace, this.#ports.fs, { agents: this.#registry.agents });
  }

  /** Whether a reset may run now; reads only, so a refusal changes nothing. */
  async precheck(opts: { callerEnv?: Record<string, string | undefined> } = {}): Promise<PrecheckResult> {
    const o = checkPrecheckOptions(opts);
    await this.#exists();
    const { precheckReset } = await import('./precheck-reset.js');
    return precheckReset(this.#ports, this.#workspace, await this.#registry.inspect(), o.callerEnv ?? this.#ports.proc.env(), { agents: this.#registry.agents });
  }

  /** The saved spec's entries with their D6 states (none without a spec); a bad spec throws a ResetSpecError. */
  async entries(): Promise<ResetEntry[]> {
    await this.#exists();
    const agents = this.#registry.agents;
    const { readResetSpec } = await import('./reset-spec-file.js');
    const { classifyEntry } = await import('./reset-entry.js');
    const spec = await readResetSpec(this.#ports.fs, this.#workspace, { agents });
    if (spec === null) return [];
    const state = await this.#registry.snapshot();
    return spec.agents.map((t) => classifyEntry(t, state, { agents }));
  }

  /**
   * When the spec entry has no old id and the same instance now records one, persists it as the entry's `oldId` (`old_id` in the file)
   * (review F1); true when it wrote.
   */
  async recordId(name: string): Promise<boolean> {
    checkNameArg('name', name);
    await this.#exists();
    const { readResetSpec, saveResetSpec } = await import('./reset-spec-file.js');
    const { recordedId } = await import('../registry/row-agent.js');
    const spec = await readResetSpec(this.#ports.fs, this.#workspace, { agents: this.#registry.agents });
    const entry = spec?.agents.find((a) => a.name === name);
    if (spec === null || entry === undefined || entry.oldId !== null) return false;
    const row = (await this.#registry.snapshot()).herdr_sessions.find((r) => r.name === name);
    if (row === undefined || (row.herdr_session_created_at ?? null) !== entry.oldCreatedAt) return false;
    const id = recordedId(row, { agents: this.#registry.agents });
    if (id === null) return false;
    entry.oldId = id;
    await saveResetSpec(this.#ports.fs, this.#workspace, spec);
    return true;
  }

  /** The result table of the saved spec now, with the given notes (skips, failures) in place of entry states. */
  async table(notes: ReadonlyMap<string, ResetRunNote> = new Map()): Promise<{ rows: ResetTableRow[]; text: string; exitCode: 0 | 1 | 4 | 5 }> {
    const { renderResetTable, tableExitCode, tableRowOf } = await import('./reset-table.js');
    const rows = (await this.entries()).map((e) => tableRowOf(e, notes.get(e.target.name)));
    return { rows, text: renderResetTable(rows), exitCode: tableExitCode(rows) };
  }

  /**
   * Runs the reset (see the spec's "The run"); never throws for a refusal (an outcome with exit 1 or 3) or for a
   * filesystem fault met on the way (exit 1, the table showing how far each target got).
   */
  async run(opts: ResetRunOptions): Promise<ResetOutcome> {
    const o = checkResetRunOptions(opts);
    const fault = await this.#exists().then(
      () => null,
      (err: unknown) => {
        if (err instanceof InvalidArgumentError) throw err;
        return err;
      },
    );
    // A stat that failed for another reason (EACCES, EIO) is a fault met on the way: an outcome, never a throw.
    if (fault !== null) return { kind: 'failed', exitCode: 1, table: '', rows: [], message: `the workspace could not be checked: ${describeError(fault)}; nothing was done`, specKept: false };
    const { runReset } = await import('./run-reset.js');
    const { SessionLifecycle } = await import('../lifecycle/session-lifecycle.js');
    return runReset(
      {
        workspace: this.#workspace,
        ports: this.#ports,
        registry: this.#registry,
        recordId: (n) => this.recordId(n),
        table: (notes) => this.table(notes),
        lifecycle: () => new SessionLifecycle(this.#workspace, { ...this.#lifeOpts, ports: this.#ports, registry: this.#registry }),
      },
      o,
    );
  }
}

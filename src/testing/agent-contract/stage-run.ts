import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentAdapter, HomeDiscoveryContext } from '../../agents/types.js';
import type { FileSystemPort, Ports } from '../../ports/index.js';
import { releaseKept } from '../../sqlite/kept-connections.js';
import { FakeProcessTable } from '../process/fake-process-table.js';
import type { FakeProcess } from '../process/fake-process.js';
import type { AgentContractOptions, AgentContractStage, StageLayout } from './types.js';

/** The suite's own process (the caller of every adapter method): no holder, no session variable. */
export const SELF: FakeProcess = { pid: 900, ppid: 1, argv: ['node', 'mam-agent-contract'], env: {} };

/** One built stage: its root, its layout, and contexts and adapters on the suite's ports. */
export interface StageRun {
  /** The temp root the stage was built under. */
  root: string;
  /** What the stage says it holds. */
  layout: StageLayout;
  /** The context of the stage's workspace (or of `workspace`). */
  ctx(workspace?: string): HomeDiscoveryContext;
  /** A fresh adapter on the suite's ports, with `fs` and the process table replaced when given. */
  adapter(over?: { fs?: FileSystemPort; processes?: readonly FakeProcess[] }): { adapter: AgentAdapter; ports: Ports };
}

/** Builds `stage` in a fresh temp dir; `remove` takes the dir away again (the build's leftovers too when it threw). */
export async function buildStage(options: AgentContractOptions, base: Ports, stage: AgentContractStage): Promise<{ run: StageRun; remove: () => Promise<void> }> {
  const made = await base.fs.mkdtemp(join(base.fs.tmpdir(), 'mam-agent-contract-'));
  const remove = async (): Promise<void> => {
    // No read connection kept from the stage outlives it.
    releaseKept(base.fs);
    await rm(made, { recursive: true, force: true, maxRetries: 3 });
  };
  try {
    const root = await base.fs.realpath(made);
    const layout = await stage.build(root);
    const run: StageRun = {
      root,
      layout,
      ctx: (workspace = layout.workspace) => ({ workspace, home: layout.home, ...(layout.env === undefined ? {} : { env: { ...layout.env } }) }),
      adapter: (over = {}) => {
        const ports: Ports = { ...base, fs: over.fs ?? base.fs, proc: new FakeProcessTable(over.processes ?? [], { self: SELF }) };
        return { adapter: options.adapter(ports), ports };
      },
    };
    return { run, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

/** Runs `fn` on a stage of its own: built afresh in a temp dir, removed afterwards (also when `fn` throws). */
export async function withFreshStage<T>(options: AgentContractOptions, base: Ports, stage: AgentContractStage, fn: (run: StageRun) => Promise<T>): Promise<T> {
  const { run, remove } = await buildStage(options, base, stage);
  try {
    return await fn(run);
  } finally {
    await remove();
  }
}

/**
 * One build of a stage shared by the laws that only read it: built at the first `use`, removed by `release` (a later
 * `use` builds it again).
 */
export class SharedStage {
  #built: ReturnType<typeof buildStage> | undefined;
  readonly #make: () => ReturnType<typeof buildStage>;

  /** A shared build of `stage` on `base`. */
  constructor(options: AgentContractOptions, base: () => Ports, stage: AgentContractStage) {
    this.#make = () => buildStage(options, base(), stage);
  }

  /** Runs `fn` on the shared build. */
  async use<T>(fn: (run: StageRun) => Promise<T>): Promise<T> {
    this.#built ??= this.#make();
    return fn((await this.#built).run);
  }

  /** Removes the build, if one was made (never rejects). */
  async release(): Promise<void> {
    const built = this.#built;
    this.#built = undefined;
    if (built === undefined) return;
    await built.then((b) => b.remove()).catch(() => undefined);
  }
}

import { checkSignalOption, stopIfAborted } from '../abort.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename, isAbsolute } from 'node:path';
import { type MamError, toPortError } from '../errors.js';
import { NodeClock } from '../node/node-clock.js';
import { NodeFileSystem } from '../node/node-fs.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { registryAgents } from './registry-agents.js';
import { RegistryInvalidUpdateError } from './registry-invalid-update-error.js';
import { RegistryMirrorError } from './registry-mirror-error.js';
import { type RegistryPaths, registryPaths } from './registry-paths.js';
import { RegistryReentrantUpdateError } from './registry-reentrant-update-error.js';
import { inProcessTurn } from './in-process-turn.js';
import type { RegistryInspection, RegistryState } from './registry-state.js';
import type { LoadedRegistry } from './loaded-registry.js';
import type { RowDelta } from './registry-commit.js';
import type { RegistryMirror } from './registry-mirror.js';
import { type RegistryWork, registryWork } from './lazy-registry-work.js';
import { RegistryReader } from './registry-reader.js';
import { checkRegistryOptions, type RegistryUpdateOptions, type SessionRegistryOptions } from './session-registry-options.js';
import { UpdateLock } from './update-lock.js';

// The lock paths this async context holds, so a nested update fails at once instead of waiting for itself.
const held = new AsyncLocalStorage<ReadonlySet<string>>();

/**
 * A workspace's session registry: `.mam/agent-sessions.yaml` (the reference tool's format, every unknown field kept)
 * and its SQLite mirror `.mam/agent-sessions.db`, changed only through atomic, cross-process locked updates.
 *
 * Reads need no lock: the YAML is only ever replaced by an atomic rename. A missing file is an empty registry; an
 * empty or unreadable one is a `RegistryCorruptError`, and no update ever writes over it. Nothing is read or
 * written through a link: `.mam/` must be a real directory and each of its files a regular file with one link.
 * @public
 */
export class SessionRegistry {
  /** Where this registry's files are. */
  readonly paths: RegistryPaths;
  /**
   * The outside agents this registry knows (`opts.agents`, none by default); pass them on to the functions that read
   * rows (`pinRow(draft, name, id, { agents: registry.agents })`, `rowAgent`, `recordedId`, `idsClaimedByOthers`).
   */
  readonly agents: readonly AgentDefinition<string>[];
  readonly #agents: AgentCatalog<string>;
  readonly #ports: { fs: FileSystemPort; clock: Clock };
  readonly #onWarning: ((warning: MamError) => void) | undefined;
  readonly #reader: RegistryReader;
  readonly #updateLock: UpdateLock;
  #lastWarning: MamError | null = null;
  #swept = false;
  #mirror: RegistryMirror | undefined;

  /** Binds to `<workspace>/.mam/`; nothing is read or created until the first call. */
  constructor(workspace: string, opts: SessionRegistryOptions = {}) {
    if (typeof workspace !== 'string') throw new InvalidArgumentError('workspace', 'must be a string');
    if (workspace === '' || workspace.includes('\0')) throw new InvalidArgumentError('workspace', 'must be a non-empty path');
    if (!isAbsolute(workspace)) throw new InvalidArgumentError('workspace', 'must be an absolute path (a relative one would be resolved against the current directory)');
    checkRegistryOptions(opts);
    this.#agents = registryAgents<string>(opts.agents, 'opts.agents');
    this.agents = opts.agents === undefined ? [] : [...opts.agents];
    this.paths = registryPaths(workspace);
    // Only the two ports it uses, built directly: a process that needs just the registry need not load the others.
    this.#ports = { fs: opts.ports?.fs ?? new NodeFileSystem(), clock: opts.ports?.clock ?? new NodeClock() };
    this.#onWarning = opts.onWarning;
    this.#reader = new RegistryReader(this.#ports.fs, this.paths, this.#agents);
    const { fs, clock } = this.#ports;
    this.#updateLock = new UpdateLock({ fs, clock, paths: this.paths, timeoutMs: opts.lockTimeoutMs ?? 30_000, createWorkspace: opts.createWorkspace === true });
  }

  /**
   * Closes the mirror connection this instance keeps between updates. Optional: between updates it holds no lock and
   * leaves no file, so a process may simply exit; a later update opens it again.
   */
  close(): void {
    this.#mirror?.close();
  }

  /**
   * The registry as it is now: a copy the caller may change freely (changing it changes nothing on disk).
   * @example
   * ```ts
   * const { herdr_sessions } = await new SessionRegistry('/w').snapshot();
   * ```
   */
  snapshot(): Promise<RegistryState> {
    return this.#reader.snapshot();
  }

  /**
   * A lenient read for reports: rows that fail validation are set apart in `invalidRows` instead of failing the read
   * (file-level problems still throw a `RegistryCorruptError`).
   */
  inspect(): Promise<RegistryInspection> {
    return this.#reader.inspect();
  }

  /**
   * Runs `mutate` on a copy of the registry under the cross-process lock, then writes the result atomically (and the
   * mirror in the same critical section) and returns what `mutate` returned. The lock covers read → mutate → write
   * only: `mutate` may be async, but must not run processes, call herdr, sleep or wait on the network (the lock
   * would be held all that time). If `mutate` throws, nothing is written; a state that is not a valid registry is
   * refused with a `RegistryInvalidUpdateError`; an unreadable file with a `RegistryCorruptError`; a registry
   * name that is not the registry's own file (see {@link SessionRegistry.checkFiles}) with a RegistryFileRefusedError,
   * before anything is written. `opts.signal` stops it before the write begins (rejecting with `signal.reason`, nothing
   * written): while it waits for the lock, and before and after `mutate`; once the write has begun, the YAML and the
   * mirror are written to the end.
   * @example
   * ```ts
   * await registry.update((draft) => {
   *   pinRow(draft, 'reviewer-claude-01', id);
   * });
   * ```
   */
  async update<T>(mutate: (draft: RegistryState) => T | Promise<T>, opts: RegistryUpdateOptions = {}): Promise<T> {
    if (typeof mutate !== 'function') throw new InvalidArgumentError('mutate', 'must be a function (draft) => result');
    const signal = checkSignalOption(opts);
    stopIfAborted(signal);
    const { yaml } = this.paths;
    const outer = held.getStore();
    if (outer?.has(this.paths.lock) === true) throw new RegistryReentrantUpdateError(yaml);
    const done = await inProcessTurn(this.paths.lock);
    try {
      stopIfAborted(signal);
      return await this.#locked(mutate, outer, signal);
    } finally {
      done();
    }
  }

  async #locked<T>(mutate: (draft: RegistryState) => T | Promise<T>, outer: ReadonlySet<string> | undefined, signal: AbortSignal | undefined): Promise<T> {
    const w = await registryWork();
    const { fs } = this.#ports;
    const { yaml } = this.paths;
    const lock = await this.#updateLock.acquire(signal);
    try {
      stopIfAborted(signal);
      // Under the lock (our own writers are done): every name written below is checked before anything is written.
      await w.checkOwnNames(fs, [yaml], yaml);
      await this.#mirrorOf(w).check();
      const prev = await this.#reader.load();
      if (!this.#swept) {
        // Under the lock every writer of ours is done: a temp file of the YAML is a killed writer's leftover.
        await w.cleanStaleTemps(fs, this.paths.dir, basename(yaml));
        this.#swept = true;
      }
      const draft = w.clonePlain(prev.state);
      const result = await held.run(new Set([...(outer ?? []), this.paths.lock]), () => mutate(draft));
      const outcome = w.commitDraft(prev, draft, this.#agents);
      if (outcome.kind === 'invalid') throw new RegistryInvalidUpdateError(yaml, outcome.issues);
      // The last look at the signal: from here the YAML and the mirror are written to the end.
      stopIfAborted(signal);
      this.#lastWarning = null;
      if (outcome.kind === 'unchanged') {
        if (prev.bytes !== null) await this.#syncMirror(prev, prev, null, false);
        return result;
      }
      try {
        await w.writeFileAtomic(fs, yaml, outcome.next.bytes);
      } catch (err) {
        // The YAML is the truth: once it holds the new version (the rename went through, a later fsync failed) the
        // change is applied, and a throw would invite the caller to apply it twice.
        if (!(await this.#reader.holds(outcome.next.bytes))) throw err;
        this.#warn(toPortError(err, 'atomic.write', yaml));
      }
      this.#reader.keep(outcome.next);
      await this.#syncMirror(prev, outcome.next, outcome.delta, true);
      return result;
    } finally {
      lock.release();
    }
  }

  /**
   * Rejects with a {@link RegistryFileRefusedError} when a registry file is not the registry's own: `.mam/` a link or a
   * file, the YAML, the lock (or its journal), the SQLite mirror or one of its sidecars a link (symbolic or hard), a
   * directory or a FIFO, or the mirror a database whose tables are not the mirror's (another application's). Writes
   * nothing; {@link SessionRegistry.update} runs the same checks before it writes, so a caller about to do something
   * it cannot undo (stop an agent, purge a conversation) and then update the registry checks first.
   * @example
   * ```ts
   * await registry.checkFiles(); // throws RegistryFileRefusedError when .mam/agent-sessions.db links elsewhere
   * ```
   */
  async checkFiles(): Promise<void> {
    const w = await registryWork();
    const { fs } = this.#ports;
    const { lock, yaml } = this.paths;
    if ((await w.registryDirState(fs, this.paths.dir)) === 'absent') return;
    await w.checkOwnNames(fs, [lock, `${lock}-journal`, yaml], yaml);
    await w.refuseDatabasesAt(fs, [lock, `${lock}-journal`]);
    await this.#mirrorOf(w).check();
  }

  /** The warning of this instance's last update (see {@link SessionRegistryOptions.onWarning}), or null when it had none. */
  get lastWarning(): MamError | null {
    return this.#lastWarning;
  }

  // The mirror is derived data: its failure is a warning, never a throw (the YAML change it follows is committed).
  async #syncMirror(prev: LoadedRegistry, next: LoadedRegistry, delta: RowDelta | null, yamlWritten: boolean): Promise<void> {
    const w = await registryWork();
    try {
      await this.#mirrorOf(w).sync(prev, next, delta);
    } catch (err) {
      this.#warn(new RegistryMirrorError(this.paths.db, yamlWritten, err));
    }
  }

  // The mirror connection, made on the first call that needs it.
  #mirrorOf(w: RegistryWork): RegistryMirror {
    this.#mirror ??= new w.RegistryMirror(this.#ports.fs, this.paths.db, this.#agents);
    return this.#mirror;
  }

  #warn(warning: MamError): void {
    this.#lastWarning = warning;
    try {
      this.#onWarning?.(warning);
    } catch {
      // A throwing callback cannot turn a committed update into a failed one.
    }
  }
}

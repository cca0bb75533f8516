import { checkSignalOption, stopIfAborted } from '../abort.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { basename, isAbsolute } from 'node:path';
import { isPortError, type MamError, toPortError } from '../errors.js';
import { NodeClock } from '../node/node-clock.js';
import { NodeFileSystem } from '../node/node-fs.js';
import { InvalidArgumentError } from '../invalid-argument-error.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystemPort } from '../ports/fs.js';
import type { Ports } from '../ports/index.js';
import type { AgentCatalog } from '../agents/outside-agents.js';
import type { AgentDefinition } from '../agents/contract/agent-definition.js';
import { registryAgents, type RegistryAgentsOption } from './registry-agents.js';
import { RegistryInvalidUpdateError } from './registry-invalid-update-error.js';
import { RegistryMirrorError } from './registry-mirror-error.js';
import { type RegistryPaths, registryPaths } from './registry-paths.js';
import { RegistryReentrantUpdateError } from './registry-reentrant-update-error.js';
import { inProcessTurn } from './in-process-turn.js';
import type { RegistryInspection, RegistryState } from './registry-state.js';
import type { LockHandle } from '../atomic/lock.js';
import type { LoadedRegistry } from './loaded-registry.js';
import type { RowDelta } from './registry-commit.js';
import type { RegistryMirror } from './registry-mirror.js';

type RegistryWork = typeof import('./registry-work.js');
let loadingWork: Promise<RegistryWork> | undefined;

// What the calls run (parsing, validation, the commit, the lock, the mirror) is loaded on the first call, once for the
// process: importing @mam/core, or constructing a registry, does not load it.
function registryWork(): Promise<RegistryWork> {
  loadingWork ??= import('./registry-work.js');
  return loadingWork;
}

/**
 * Options of {@link SessionRegistry.update}.
 * @public
 */
export interface RegistryUpdateOptions {
  /** Stops the update before its write begins, rejecting with `signal.reason` (nothing written). */
  signal?: AbortSignal;
}

/**
 * Options of {@link SessionRegistry}.
 * @public
 */
export interface SessionRegistryOptions extends RegistryAgentsOption<string> {
  /** Ports to use instead of the real ones; the registry uses only `fs` and `clock` (defaults: Node's filesystem and clock). */
  ports?: Partial<Ports>;
  /** Give up waiting for the update lock after this long, with a LockTimeoutError (default 30 000 ms). */
  lockTimeoutMs?: number;
  /**
   * Called when an update committed the YAML but something after it failed (the SQLite mirror, e.g. on a full disk, as a
   * `RegistryMirrorError`; the directory fsync): the update still resolved and must NOT be retried. The mirror is
   * then stale (its `yaml_sha256` is not the YAML's) and the next update, of any instance, rebuilds it.
   */
  onWarning?: (warning: MamError) => void;
  /** Create the workspace directory on the first update when it does not exist (default: an update of a missing workspace throws an `InvalidArgumentError`). */
  createWorkspace?: boolean;
}

// Plain checks, no zod: constructing a registry stays as cheap as it was.
function checkRegistryOptions(opts: unknown): void {
  if (typeof opts !== 'object' || opts === null) throw new InvalidArgumentError('opts', 'must be an object');
  const o = opts as Record<string, unknown>;
  if (o['ports'] !== undefined && (typeof o['ports'] !== 'object' || o['ports'] === null)) throw new InvalidArgumentError('opts.ports', 'must be an object of ports');
  if (o['lockTimeoutMs'] !== undefined && (typeof o['lockTimeoutMs'] !== 'number' || !(o['lockTimeoutMs'] >= 0))) throw new InvalidArgumentError('opts.lockTimeoutMs', 'must be a number of milliseconds, not negative');
  if (o['onWarning'] !== undefined && typeof o['onWarning'] !== 'function') throw new InvalidArgumentError('opts.onWarning', 'must be a function');
  if (o['createWorkspace'] !== undefined && typeof o['createWorkspace'] !== 'boolean') throw new InvalidArgumentError('opts.createWorkspace', 'must be a boolean');
}

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
  readonly #lockTimeoutMs: number;
  readonly #onWarning: ((warning: MamError) => void) | undefined;
  #lastWarning: MamError | null = null;
  // The last version read or written; reused while the file's bytes are the same.
  #cache: LoadedRegistry | null = null;
  // The bytes of the version snapshot() last parsed and handed out whole (not cached).
  #readOnce: Uint8Array | null = null;
  #dirMade = false;
  readonly #createWorkspace: boolean;
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
    this.#createWorkspace = opts.createWorkspace === true;
    // Only the two ports it uses, built directly: a process that needs just the registry need not load the others.
    this.#ports = { fs: opts.ports?.fs ?? new NodeFileSystem(), clock: opts.ports?.clock ?? new NodeClock() };
    this.#lockTimeoutMs = opts.lockTimeoutMs ?? 30_000;
    this.#onWarning = opts.onWarning;
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
  async snapshot(): Promise<RegistryState> {
    const w = await registryWork();
    const bytes = await this.#read();
    // A fresh object per call, like a copy.
    if (bytes === null) return w.missingRegistry().state;
    const cached = this.#cache;
    if (cached?.bytes != null && Buffer.compare(cached.bytes, bytes) === 0) return w.clonePlain(cached.state);
    // A version not kept yet: the state just parsed is nobody else's, so it is handed out as it is (no copy). It is
    // kept (and copied) from the second read of the same bytes on, so an instance that reads again reads from memory.
    const loaded = await w.loadRegistryText(bytes, w.decodeRegistry(bytes, this.paths.yaml), this.paths.yaml, this.#agents);
    const again = this.#readOnce !== null && Buffer.compare(this.#readOnce, bytes) === 0;
    if (!again) {
      this.#readOnce = bytes;
      return loaded.state;
    }
    this.#cache = loaded;
    this.#readOnce = null;
    return w.clonePlain(loaded.state);
  }

  /**
   * A lenient read for reports: rows that fail validation are set apart in `invalidRows` instead of failing the read
   * (file-level problems still throw a `RegistryCorruptError`).
   */
  async inspect(): Promise<RegistryInspection> {
    const w = await registryWork();
    const bytes = await this.#read();
    if (bytes === null) return { state: w.missingRegistry().state, invalidRows: [] };
    const { state, invalidRows } = await w.parseRegistryText(w.decodeRegistry(bytes, this.paths.yaml), this.paths.yaml, { lenient: true, agents: this.#agents });
    return { state: w.clonePlain(state), invalidRows };
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
    const lock = await this.#lock(signal);
    try {
      stopIfAborted(signal);
      // Under the lock (our own writers are done): every name written below is checked before anything is written.
      await w.checkOwnNames(fs, [yaml], yaml);
      await this.#mirrorOf(w).check();
      const prev = await this.#load();
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
        if (!(await this.#holds(outcome.next.bytes))) throw err;
        this.#warn(toPortError(err, 'atomic.write', yaml));
      }
      this.#cache = outcome.next;
      await this.#syncMirror(prev, outcome.next, outcome.delta, true);
      return result;
    } finally {
      lock.release();
    }
  }

  // The update lock; `.mam/` is made on the first update (and again if it has gone since). `.mam/` must be a real
  // directory and the lock file (and its journal) files of their own before SQLite opens them.
  async #lock(signal: AbortSignal | undefined): Promise<LockHandle> {
    const w = await registryWork();
    const { clock } = this.#ports;
    const opts = { clock, timeoutMs: this.#lockTimeoutMs, pollMs: 2, ...(signal === undefined ? {} : { signal }) };
    if (!this.#dirMade) {
      await this.#makeDir();
      this.#dirMade = true;
    }
    try {
      await this.#checkLockNames();
      return await w.acquireLock(this.paths.lock, opts);
    } catch (err) {
      if (!isPortError(err, 'NotFound')) throw err;
      await this.#makeDir();
      await this.#checkLockNames();
      return w.acquireLock(this.paths.lock, opts);
    }
  }

  // `.mam/` when it is not there (after the workspace check); a link or a file in its place is refused, never followed.
  async #makeDir(): Promise<void> {
    const w = await registryWork();
    const { fs } = this.#ports;
    // A workspace that is not there (or is a file) is the workspace's refusal, named as such, before `.mam/`'s.
    const state = await w.registryDirState(fs, this.paths.dir).catch(async (err: unknown) => {
      if (isPortError(err, 'NotADirectory')) await this.#requireWorkspace();
      throw err;
    });
    if (state === 'present') return;
    await this.#requireWorkspace();
    await fs.mkdir(this.paths.dir, { recursive: true });
    await w.registryDirState(fs, this.paths.dir);
  }

  async #checkLockNames(): Promise<void> {
    const w = await registryWork();
    const { lock, yaml } = this.paths;
    if ((await w.registryDirState(this.#ports.fs, this.paths.dir)) === 'absent') return;
    const names = [lock, `${lock}-journal`];
    await w.checkOwnNames(this.#ports.fs, names, yaml);
    await w.refuseDatabasesAt(this.#ports.fs, names);
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

  // A workspace that does not exist is a typo unless the caller opted in: `.mam/` is never made with mkdir -p behind its back.
  async #requireWorkspace(): Promise<void> {
    if (this.#createWorkspace) return;
    const ws = this.paths.workspace;
    let kind: string;
    try {
      kind = (await this.#ports.fs.stat(ws)).kind;
    } catch (err) {
      if (isPortError(err, 'NotFound') || isPortError(err, 'NotADirectory')) {
        throw new InvalidArgumentError('workspace', `${ws} does not exist (pass { createWorkspace: true } to create it)`);
      }
      throw err;
    }
    if (kind !== 'dir') throw new InvalidArgumentError('workspace', `${ws} is not a directory`);
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

  async #holds(bytes: Uint8Array): Promise<boolean> {
    const now = await this.#read().catch(() => null);
    return now !== null && Buffer.compare(now, bytes) === 0;
  }

  // Never through a link: `.mam/` a real directory, the YAML a regular file of its own (see readRegistryYaml).
  async #read(): Promise<Uint8Array | null> {
    const w = await registryWork();
    return w.readRegistryYaml(this.#ports.fs, this.paths);
  }

  async #load(): Promise<LoadedRegistry> {
    const w = await registryWork();
    const bytes = await this.#read();
    if (bytes === null) return w.missingRegistry();
    const cached = this.#cache;
    if (cached?.bytes != null && Buffer.compare(cached.bytes, bytes) === 0) return cached;
    const loaded = await w.loadRegistryText(bytes, w.decodeRegistry(bytes, this.paths.yaml), this.paths.yaml, this.#agents);
    this.#cache = loaded;
    return loaded;
  }
}

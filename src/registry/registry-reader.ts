import type { AgentCatalog } from '../agents/outside-agents.js';
import type { FileSystemPort } from '../ports/fs.js';
import { registryWork } from './lazy-registry-work.js';
import type { LoadedRegistry } from './loaded-registry.js';
import type { RegistryPaths } from './registry-paths.js';
import type { RegistryInspection, RegistryState } from './registry-state.js';

/**
 * The reads of one SessionRegistry instance, and the version it keeps: the last one read or written, reused while the
 * file's bytes are the same, so an instance that reads again parses nothing.
 */
export class RegistryReader {
  readonly #fs: FileSystemPort;
  readonly #paths: RegistryPaths;
  readonly #agents: AgentCatalog<string>;
  // The last version read or written; reused while the file's bytes are the same.
  #cache: LoadedRegistry | null = null;
  // The bytes of the version snapshot() last parsed and handed out whole (not cached).
  #readOnce: Uint8Array | null = null;

  constructor(fs: FileSystemPort, paths: RegistryPaths, agents: AgentCatalog<string>) {
    this.#fs = fs;
    this.#paths = paths;
    this.#agents = agents;
  }

  /** The registry as it is now, a copy nobody else holds (see SessionRegistry.snapshot). */
  async snapshot(): Promise<RegistryState> {
    const w = await registryWork();
    const bytes = await this.#read();
    // A fresh object per call, like a copy.
    if (bytes === null) return w.missingRegistry().state;
    const cached = this.#cache;
    if (cached?.bytes != null && Buffer.compare(cached.bytes, bytes) === 0) return w.clonePlain(cached.state);
    // A version not kept yet: the state just parsed is nobody else's, so it is handed out as it is (no copy). It is
    // kept (and copied) from the second read of the same bytes on, so an instance that reads again reads from memory.
    const loaded = await w.loadRegistryText(bytes, w.decodeRegistry(bytes, this.#paths.yaml), this.#paths.yaml, this.#agents);
    const again = this.#readOnce !== null && Buffer.compare(this.#readOnce, bytes) === 0;
    if (!again) {
      this.#readOnce = bytes;
      return loaded.state;
    }
    this.#cache = loaded;
    this.#readOnce = null;
    return w.clonePlain(loaded.state);
  }

  /** The lenient read of SessionRegistry.inspect: rows that fail validation set apart. */
  async inspect(): Promise<RegistryInspection> {
    const w = await registryWork();
    const bytes = await this.#read();
    if (bytes === null) return { state: w.missingRegistry().state, invalidRows: [] };
    const { state, invalidRows } = await w.parseRegistryText(w.decodeRegistry(bytes, this.#paths.yaml), this.#paths.yaml, { lenient: true, agents: this.#agents });
    return { state: w.clonePlain(state), invalidRows };
  }

  /** The version on disk, parsed (or the one kept, when the bytes are the same); the update's starting point. */
  async load(): Promise<LoadedRegistry> {
    const w = await registryWork();
    const bytes = await this.#read();
    if (bytes === null) return w.missingRegistry();
    const cached = this.#cache;
    if (cached?.bytes != null && Buffer.compare(cached.bytes, bytes) === 0) return cached;
    const loaded = await w.loadRegistryText(bytes, w.decodeRegistry(bytes, this.#paths.yaml), this.#paths.yaml, this.#agents);
    this.#cache = loaded;
    return loaded;
  }

  /** Keeps the version an update just wrote. */
  keep(written: LoadedRegistry): void {
    this.#cache = written;
  }

  /** Whether the YAML on disk holds exactly `bytes` (false when it cannot be read). */
  async holds(bytes: Uint8Array): Promise<boolean> {
    const now = await this.#read().catch(() => null);
    return now !== null && Buffer.compare(now, bytes) === 0;
  }

  // Never through a link: `.mam/` a real directory, the YAML a regular file of its own (see readRegistryYaml).
  async #read(): Promise<Uint8Array | null> {
    const w = await registryWork();
    return w.readRegistryYaml(this.#fs, this.#paths);
  }
}

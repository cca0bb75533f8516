import type { Ports } from '../ports/index.js';
import { HerdrCli } from './herdr-cli.js';
import { NodeClock } from './node-clock.js';
import { NodeFileSystem } from './node-fs.js';
import { NodeProcessPort } from './node-process.js';
import { keepConnections } from '../sqlite/kept-connections.js';

/**
 * Options of {@link nodePorts}.
 * @public
 */
export interface NodePortsOptions {
  /** The environment the library treats as the caller's (session variables, PATH for ps/lsof/herdr/agent CLIs). Default `process.env`. */
  env?: Record<string, string | undefined>;
  /** The herdr executable, a name on PATH or a path. Default `herdr`. */
  herdrBin?: string;
}

/**
 * The real ports: Node's filesystem, `/proc`/`ps` + `lsof` and execa, the `herdr` CLI, and the system clock.
 * @example
 * ```ts
 * const ports = nodePorts({ env: { ...process.env, PATH: `${sandbox.binDir}:${process.env.PATH}` } });
 * ```
 * @public
 */
export function nodePorts(opts: NodePortsOptions = {}): Ports {
  const env = opts.env ?? process.env;
  const fs = new NodeFileSystem();
  const clock = new NodeClock();
  // The real disk under the real clock: read-only connections of unchanged, settled stores live between calls.
  keepConnections(fs, () => clock.now());
  return {
    fs,
    proc: new NodeProcessPort({ env }),
    // HerdrCli lays its env over process.env: blank out what the given env lacks, so a sandbox env
    // cannot inherit the real pane's HERDR_SOCKET_PATH and reach the real herdr.
    herdr: new HerdrCli({ bin: opts.herdrBin ?? 'herdr', env: opts.env === undefined ? {} : completeEnv(opts.env) }),
    clock,
  };
}

function completeEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const blank: Record<string, undefined> = {};
  for (const key of Object.keys(process.env)) blank[key] = undefined;
  return { ...blank, ...env };
}

// The ports a given partial set resolved to, so one partial object always resolves to one Ports (and one adapter set).
const resolved = new WeakMap<Partial<Ports>, Ports>();

/**
 * Fills the ports a caller did not give with the real ones; the same partial object always gives the same `Ports`.
 * @public
 */
export function resolvePorts(given: Partial<Ports> = {}): Ports {
  if (given.fs && given.proc && given.herdr && given.clock) return given as Ports;
  const known = resolved.get(given);
  if (known !== undefined && known.fs === (given.fs ?? known.fs) && known.proc === (given.proc ?? known.proc) && known.herdr === (given.herdr ?? known.herdr) && known.clock === (given.clock ?? known.clock)) return known;
  const real = nodePorts();
  const ports = { fs: given.fs ?? real.fs, proc: given.proc ?? real.proc, herdr: given.herdr ?? real.herdr, clock: given.clock ?? real.clock };
  resolved.set(given, ports);
  return ports;
}

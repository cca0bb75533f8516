// A gate test bench: a real temp workspace and registry, an in-process fake herdr and a fake process table sharing one
// virtual clock, and a writer of markers as another (live or dead) process would have left them.
import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { IdOrderGate, type IdOrderGateOptions } from '../../src/gate/id-order-gate.js';
import { type IdOrderMarker, idOrderMarkerFileName, idOrderMarkerText } from '../../src/gate/id-order-marker.js';
import { idOrderPaths } from '../../src/gate/id-order-paths.js';
import { sanitizeHerdrAgentName } from '../../src/herdr/sanitize.js';
import { NodeFileSystem } from '../../src/node/node-fs.js';
import type { Ports } from '../../src/ports/index.js';
import { SessionRegistry } from '../../src/registry/session-registry.js';
import { FakeHerdr } from '../../src/testing/herdr/fake-herdr.js';
import { VirtualClock } from '../../src/testing/herdr/virtual-clock.js';
import { FakeProcessTable } from '../../src/testing/process/fake-process-table.js';
import { makeWorkspace } from './registry-fixtures.js';

export const SELF_PID = 500;
export const SELF_START_MS = 1_767_000_000_000;

export interface GateKit {
  ws: string;
  clock: VirtualClock;
  herdr: FakeHerdr;
  proc: FakeProcessTable;
  ports: Ports;
  registry: SessionRegistry;
  markerDir: string;
  gate(opts?: IdOrderGateOptions): IdOrderGate;
  /** Writes a marker (defaults: owner pid 777, session reviewer-agy-01 on `default`, attempt = now) and returns its path. */
  writeMarker(over?: Partial<IdOrderMarker>): Promise<{ file: string; marker: IdOrderMarker }>;
  /** Adds a live process (the owner of a marker). */
  live(pid: number, startedAtMs?: number): void;
  dispose(): Promise<void>;
}

export async function gateKit(env: Record<string, string> = {}): Promise<GateKit> {
  const { ws, dispose } = await makeWorkspace('mam-gate-');
  const clock = new VirtualClock();
  const herdr = new FakeHerdr({ clock });
  const proc = new FakeProcessTable([], { self: { pid: SELF_PID, argv: ['node', 'mam'], startedAtMs: SELF_START_MS, env } });
  const ports: Ports = { fs: new NodeFileSystem(), proc, herdr, clock };
  const registry = new SessionRegistry(ws, { ports });
  const markerDir = idOrderPaths(ws, ws).dir;
  return {
    ws,
    clock,
    herdr,
    proc,
    ports,
    registry,
    markerDir,
    gate: (opts = {}) => new IdOrderGate(ws, { ports, registry, pollMs: 250, ...opts }),
    async writeMarker(over = {}) {
      const session = over.session ?? 'reviewer-agy-01';
      const marker: IdOrderMarker = {
        version: 1,
        owner_pid: 777,
        owner_started_at_ms: null,
        owner_start_ticks: null,
        token: randomUUID(),
        session,
        herdr_name: sanitizeHerdrAgentName(session),
        herdr_server: 'default',
        attempt: Math.floor(clock.now() / 1000),
        cwd: ws,
        pane_id: null,
        written_at: new Date(clock.now()).toISOString(),
        ...over,
      };
      await mkdir(markerDir, { recursive: true });
      const file = join(markerDir, idOrderMarkerFileName(marker));
      await writeFile(file, idOrderMarkerText(marker));
      return { file, marker };
    },
    live(pid, startedAtMs) {
      proc.add({ pid, argv: ['node', 'mam', 'create'], ...(startedAtMs === undefined ? {} : { startedAtMs }) });
    },
    dispose,
  };
}

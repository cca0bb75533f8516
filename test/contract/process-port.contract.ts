import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProcessInfo, ProcessPort } from '../../src/ports/process.js';
import { isLiveProcess } from '../../src/process/process-state.js';

/** The processes and files a {@link processPortContract} setup provides. */
export interface ProcessScenario {
  /** A distinctive argument on `markerPid`'s command line. */
  marker: string;
  markerPid: number;
  /** The parent of `markerPid`. */
  markerPpid: number;
  /** `markerPid` started inside this epoch-ms window (ps has second resolution: widen by a second). */
  markerStartWindow: readonly [number, number];
  /** Holds `heldPath` open and nothing else of the asked paths. */
  holderPid: number;
  heldPath: string;
  /** A live process holding nothing. */
  idlePid: number;
  /** Existing files nobody holds. */
  unheldPaths: readonly string[];
  /** A path that does not exist. */
  missingPath: string;
  /** A pid no process has. */
  deadPid: number;
  /** A process that has exited and that its parent (`zombieParentPid`, a live process) has not reaped. */
  zombiePid: number;
  zombieParentPid: number;
  /** A variable the port's `env()` must carry. */
  envVar: readonly [string, string];
  /** A live process whose working directory is `cwdDir/sub` (and which holds no file there). */
  cwdPid: number;
  /** A directory whose subdirectory `sub` is `cwdPid`'s cwd; `cwdDir/other` is a sibling nobody is in. */
  cwdDir: string;
}

/** What a contract setup yields. */
export interface ProcessPortFixture {
  port: ProcessPort;
  scenario: ProcessScenario;
  teardown?: () => Promise<void>;
}

function byPid(snapshot: readonly ProcessInfo[], pid: number): ProcessInfo | undefined {
  return snapshot.find((p) => p.pid === pid);
}

/** The semantics every ProcessPort shares, run against the Node port (real processes) and the fake table. */
export function processPortContract(name: string, setup: () => Promise<ProcessPortFixture>): void {
  describe(`ProcessPort contract: ${name}`, () => {
    let fx: ProcessPortFixture;
    let port: ProcessPort;
    let sc: ProcessScenario;

    beforeAll(async () => {
      fx = await setup();
      port = fx.port;
      sc = fx.scenario;
    });
    afterAll(async () => {
      await fx?.teardown?.();
    });

    it('snapshot holds the marker process with its parent and its command line', async () => {
      const snap = await port.snapshot();
      const p = byPid(snap, sc.markerPid);
      expect(p).toBeDefined();
      expect(p?.ppid).toBe(sc.markerPpid);
      expect(p?.command.split(' ')).toContain(sc.marker);
      if (p?.argv !== undefined) {
        expect(p.argv).toContain(sc.marker);
        expect(p.command).toBe(p.argv.join(' '));
      }
      expect(p?.comm).not.toBe('');
    });

    it('snapshot holds every live process of the scenario and the caller, and not the dead pid', async () => {
      const pids = new Set((await port.snapshot()).map((p) => p.pid));
      for (const pid of [sc.markerPid, sc.holderPid, sc.idlePid, port.selfPid()]) expect(pids.has(pid)).toBe(true);
      expect(pids.has(sc.deadPid)).toBe(false);
    });

    it('snapshot reports a start time inside the window the marker process started in', async () => {
      const p = byPid(await port.snapshot(), sc.markerPid);
      expect(p?.startedAtMs).toBeTypeOf('number');
      expect(p?.startedAtMs).toBeGreaterThanOrEqual(sc.markerStartWindow[0]);
      expect(p?.startedAtMs).toBeLessThanOrEqual(sc.markerStartWindow[1]);
    });

    it('snapshot answers are copies: changing one does not change the next', async () => {
      const first = await port.snapshot();
      const p = byPid(first, sc.markerPid) as ProcessInfo;
      p.command = 'changed';
      p.argv?.splice(0);
      first.length = 0;
      const again = byPid(await port.snapshot(), sc.markerPid);
      expect(again?.command.split(' ')).toContain(sc.marker);
    });

    it('lookup agrees with the snapshot on parent, command, name and start', async () => {
      const fromSnap = byPid(await port.snapshot(), sc.markerPid) as ProcessInfo;
      const one = await port.lookup(sc.markerPid);
      expect(one).not.toBeNull();
      expect(one?.pid).toBe(sc.markerPid);
      expect(one?.ppid).toBe(fromSnap.ppid);
      expect(one?.command).toBe(fromSnap.command);
      expect(one?.comm).toBe(fromSnap.comm);
      expect(one?.startedAtMs).toBe(fromSnap.startedAtMs);
      expect(one?.startTicks).toBe(fromSnap.startTicks);
    });

    it('lookup of a dead pid, pid 0 or a negative pid is null', async () => {
      expect(await port.lookup(sc.deadPid)).toBeNull();
      expect(await port.lookup(0)).toBeNull();
      expect(await port.lookup(-5)).toBeNull();
    });

    it('holders finds exactly the holder among many paths in one call, ignoring missing paths', async () => {
      const asked = [...sc.unheldPaths, sc.missingPath, sc.heldPath];
      const found = await port.holders(asked);
      expect(found.map((h) => [h.pid, h.path])).toEqual([[sc.holderPid, sc.heldPath]]);
      const holder = await port.lookup(sc.holderPid);
      expect(found[0]?.command).toBe(holder?.comm);
    });

    it('holders of nothing, of missing paths only, or of unheld paths is empty', async () => {
      expect(await port.holders([])).toEqual([]);
      expect(await port.holders([sc.missingPath])).toEqual([]);
      expect(await port.holders(sc.unheldPaths)).toEqual([]);
    });

    it('a process whose cwd is a directory target or below it holds that directory (a shell cd\'d into it)', async () => {
      const holds = async (p: string): Promise<number[]> => (await port.holders([p])).map((h) => h.pid);
      expect(await holds(sc.cwdDir)).toContain(sc.cwdPid);
      expect(await holds(`${sc.cwdDir}/sub`)).toContain(sc.cwdPid);
      expect(await holds(`${sc.cwdDir}/other`)).not.toContain(sc.cwdPid);
      const both = await port.holders([sc.heldPath, sc.cwdDir]);
      expect(both.filter((h) => h.pid === sc.cwdPid).map((h) => h.path)).toEqual([sc.cwdDir]);
    });

    it('holders reports a path asked twice once', async () => {
      const found = await port.holders([sc.heldPath, sc.heldPath]);
      expect(found).toEqual([expect.objectContaining({ pid: sc.holderPid, path: sc.heldPath })]);
    });

    it('the idle and the marker processes hold none of the paths', async () => {
      const pids = (await port.holders([sc.heldPath, ...sc.unheldPaths])).map((h) => h.pid);
      expect(pids).not.toContain(sc.idlePid);
      expect(pids).not.toContain(sc.markerPid);
    });

    it('every process of the scenario says what it is doing: the live ones live, the zombie a zombie', async () => {
      const snap = await port.snapshot();
      for (const pid of [sc.markerPid, sc.holderPid, sc.idlePid, sc.zombieParentPid, port.selfPid()]) {
        const p = byPid(snap, pid);
        expect(['running', 'sleeping']).toContain(p?.state);
        expect(isLiveProcess(p)).toBe(true);
      }
      const z = byPid(snap, sc.zombiePid);
      expect(z).toMatchObject({ pid: sc.zombiePid, ppid: sc.zombieParentPid, state: 'zombie' });
      expect(isLiveProcess(z)).toBe(false);
    });

    it('a zombie has no argv and shows as [comm], in the snapshot and by lookup alike', async () => {
      const fromSnap = byPid(await port.snapshot(), sc.zombiePid) as ProcessInfo;
      const one = await port.lookup(sc.zombiePid);
      for (const z of [fromSnap, one]) {
        expect(z?.argv).toBeUndefined();
        expect(z?.command).toBe(`[${z?.comm}]`);
        expect(z?.state).toBe('zombie');
      }
      expect(one?.ppid).toBe(fromSnap.ppid);
      expect(one?.startedAtMs).toBe(fromSnap.startedAtMs);
    });

    it('selfPid is a live process and env() carries the caller environment', async () => {
      const self = await port.lookup(port.selfPid());
      expect(self?.pid).toBe(port.selfPid());
      expect(port.env()[sc.envVar[0]]).toBe(sc.envVar[1]);
    });
  });
}

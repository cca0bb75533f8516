// G5: the registry lock covers one decision and one record write — no subprocess, socket or sleep under it — and the
// audit mirror is appended only after the lock is released.
import cp from 'node:child_process';
import net from 'node:net';
import { syncBuiltinESMExports } from 'node:module';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tryLock, withLock } from '../../../src/atomic/lock.js';
import { JobEngine, jobPaths } from '../../../src/jobs/index.js';
import { NodeClock } from '../../../src/node/node-clock.js';
import { NodeFileSystem } from '../../../src/node/node-fs.js';
import type { Clock, FileSystemPort } from '../../../src/ports/index.js';
import { FakeHerdr } from '../../../src/testing/herdr/index.js';
import { makeJobsWorkspace } from '../../helpers/jobs-workspace.js';

type FsCall = { op: string; path: string; held: boolean };

describe('G5: nothing blocking runs under the registry lock', () => {
  let registryDir: string;
  let dispose: () => Promise<void>;
  let violations: string[];
  let lockPath: string;

  // True while anyone holds the registry lock (SQLite's lock is seen by a second connection of the same process too).
  const held = (): boolean => {
    const probe = tryLock(lockPath);
    if (probe === null) return true;
    probe.release();
    return false;
  };
  const guard = <A extends unknown[], R>(name: string, real: (...a: A) => R) =>
    (...args: A): R => {
      if (held()) {
        violations.push(name);
        throw new Error(`${name} must not run under the registry lock`);
      }
      return real(...args);
    };

  beforeEach(async () => {
    ({ registryDir, dispose } = await makeJobsWorkspace('g5'));
    lockPath = jobPaths.lock(registryDir);
    await new NodeFileSystem().mkdir(registryDir, { recursive: true });
    violations = [];
    for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'] as const) {
      const real = cp[name] as (...a: unknown[]) => unknown;
      vi.spyOn(cp, name).mockImplementation(guard(`child_process.${name}`, real) as never);
    }
    const realConnect = net.Socket.prototype.connect;
    vi.spyOn(net.Socket.prototype, 'connect').mockImplementation(function (this: net.Socket, ...args: unknown[]) {
      return guard('net.Socket.connect', (...a: unknown[]) => (realConnect as (...x: unknown[]) => net.Socket).apply(this, a))(...args);
    } as never);
    vi.spyOn(net, 'connect').mockImplementation(guard('net.connect', net.connect) as never);
    vi.spyOn(net, 'createConnection').mockImplementation(guard('net.createConnection', net.createConnection) as never);
    vi.spyOn(Atomics, 'wait').mockImplementation(guard('Atomics.wait', Atomics.wait) as never);
    syncBuiltinESMExports();
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    syncBuiltinESMExports();
    await dispose();
  });

  function watchedPorts(extra?: (call: FsCall) => void) {
    const real = new NodeFileSystem();
    const calls: FsCall[] = [];
    const fs = new Proxy(real, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (typeof v !== 'function' || prop === 'tmpdir') return v;
        return (...args: unknown[]) => {
          const call = { op: String(prop), path: String(args[0]), held: held() };
          calls.push(call);
          extra?.(call);
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    }) as FileSystemPort;
    const realClock = new NodeClock();
    const clock: Clock = {
      now: () => realClock.now(),
      monotonic: () => realClock.monotonic(),
      sleep: guard('clock.sleep', (ms: number, signal?: AbortSignal) => realClock.sleep(ms, signal)),
    };
    const herdr = new FakeHerdr();
    const herdrGuarded = new Proxy(herdr, {
      get(target, prop, receiver) {
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? guard(`herdr.${String(prop)}`, (v as (...a: unknown[]) => unknown).bind(target)) : v;
      },
    });
    return { calls, ports: { fs, clock, herdr: herdrGuarded } };
  }

  it('the spies catch each entry point while the lock is held, and let it through otherwise', async () => {
    const { ports } = watchedPorts();
    await withLock(lockPath, { clock: new NodeClock() }, async () => {
      expect(() => cp.execFileSync('true')).toThrow(/under the registry lock/);
      expect(() => new net.Socket().connect(1, '127.0.0.1')).toThrow(/under the registry lock/);
      expect(() => net.connect(1, '127.0.0.1')).toThrow(/under the registry lock/);
      expect(() => ports.clock.sleep(1)).toThrow(/under the registry lock/);
      expect(() => ports.herdr.agentList()).toThrow(/under the registry lock/);
    });
    expect(violations).toEqual(['child_process.execFileSync', 'net.Socket.connect', 'net.connect', 'clock.sleep', 'herdr.agentList']);
    violations.length = 0;
    expect(cp.execFileSync('true').toString()).toBe('');
    await ports.clock.sleep(1);
    expect(violations).toEqual([]);
  });

  it('an engine whose port blocks under the lock is caught (the check can fail)', async () => {
    const { ports } = watchedPorts((call) => {
      if (call.op === 'rename' && call.held) cp.execFileSync('true');
    });
    const engine = new JobEngine(registryDir, { ports });
    await expect(engine.registerJob('p')).rejects.toThrow(/under the registry lock/);
    expect(violations).toEqual(['child_process.execFileSync']);
  });

  it('every engine operation writes its record under the lock, appends its audit after it, and blocks on nothing', async () => {
    const { calls, ports } = watchedPorts();
    const engine = new JobEngine(registryDir, { ports });
    const job = await engine.registerJob('p', { agentSession: 'herdr:s1' });
    const other = await engine.registerJob('q');
    await engine.pickPending('herdr:s1');
    for (const req of ['progress', 'completed', 'completed', 'error'] as const) await engine.transition(job.job_id, req);
    await engine.transition(other.job_id, 'claim', { expectedStatus: 'running' });
    await engine.transition(other.job_id, 'claim', { expectedAttempt: 7 });
    await engine.updateJobStatus(other.job_id, { status: 'running', iteration: 1 });
    await engine.nextSeq(other.job_id);
    expect(violations).toEqual([]);

    const record = jobPaths.record(registryDir, job.job_id);
    const recordWrites = calls.filter((c) => (c.op === 'writeFile' || c.op === 'rename') && (c.path.startsWith(`${registryDir}/.`) || c.path === record));
    expect(recordWrites.length).toBeGreaterThan(0);
    expect(recordWrites.every((c) => c.held)).toBe(true);
    const underLock = new Set(calls.filter((c) => c.held).map((c) => c.op));
    expect([...underLock].filter((op) => !['readdir', 'readText', 'lstat', 'stat', 'writeFile', 'rename', 'fsyncDir'].includes(op))).toEqual([]);
    const auditWrites = calls.filter((c) => c.op === 'writeFile' && c.path.endsWith('.jsonl'));
    // pickPending, completed, the refused late error, and updateJobStatus pending → running.
    expect(auditWrites.length).toBe(4);
    expect(auditWrites.every((c) => !c.held)).toBe(true);
  });
});
